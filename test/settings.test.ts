import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ruleById } from '../server/src/rules';
import { DEFAULT_SETTINGS, readSettings } from '../server/src/settings';

/** The settings read from `value`, and what was said of what could not be used. */
function read(value: unknown) {
  const said: string[] = [];
  return { settings: readSettings(value, (problem) => said.push(problem), (id) => !!ruleById(id)), said };
}

describe('readSettings', () => {
  it('takes what a client sends, and says nothing of it', () => {
    const { settings, said } = read({ enable: false, run: 'onSave', cluster: 'off', rules: { 'single-replica': 'off' }, kubeconfig: ' /k/config ', context: '', extraPath: ['/opt/bin', ' '], trusted: true, render: false });
    assert.deepEqual(said, []);
    assert.deepEqual(
      { ...settings, helm: undefined, kustomize: undefined },
      { enable: false, run: 'onSave', cluster: 'off', rules: { 'single-replica': 'off' }, kubeconfig: '/k/config', context: undefined, extraPath: ['/opt/bin'], trusted: true, render: false, helm: undefined, kustomize: undefined },
    );
    const none = read(undefined);
    assert.deepEqual([JSON.parse(JSON.stringify(none.settings)), none.said], [DEFAULT_SETTINGS, []]);
    assert.deepEqual(read(null).said, []);
  });

  it('takes the Helm, Kustomize and path settings a client sends as written, and says nothing of them', () => {
    const { settings, said } = read({
      extraPath: ['/opt/bin', '/usr/local/bin'],
      helm: { path: '/opt/helm/bin/helm', releaseName: 'shop', valuesFiles: { 'charts/web': ['values.yaml', 'envs/prod.yaml'], '/abs/charts/api': ['/abs/values-api.yaml'] } },
      kustomize: { path: '/opt/kustomize', enablePlugins: true },
    });
    assert.deepEqual(said, []);
    assert.deepEqual([settings.extraPath, settings.helm, settings.kustomize], [
      ['/opt/bin', '/usr/local/bin'],
      { path: '/opt/helm/bin/helm', releaseName: 'shop', valuesFiles: { 'charts/web': ['values.yaml', 'envs/prod.yaml'], '/abs/charts/api': ['/abs/values-api.yaml'] } },
      { path: '/opt/kustomize', enablePlugins: true },
    ]);
    assert.equal(read({ kustomize: { enablePlugins: false } }).settings.kustomize.enablePlugins, false);
  });

  it('leaves a value it cannot use at its default and says which, as written (a typo in cluster read the live cluster without a word)', () => {
    const { settings, said } = read({ cluster: 'Off', run: 'always', enable: 'false', rules: { 'single-replica': 'loud', 'pdb-missing': 'hint', 'singel-replica': 'off' }, kubeconfig: 42, extraPath: '/opt/bin' });
    assert.deepEqual([settings.cluster, settings.run, settings.enable, settings.rules, settings.kubeconfig, settings.extraPath], ['auto', 'onType', true, { 'pdb-missing': 'hint' }, undefined, []]);
    assert.deepEqual(said, [
      'kubeResilience.rules.single-replica is "loud", not off, error, warning, info or hint: ignored',
      'kubeResilience.rules.singel-replica names no rule of kube-resilience (`kube-resilience rules` lists them): ignored',
      'kubeResilience.enable is "false", not true or false: ignored',
      'kubeResilience.run is "always", not onType or onSave: ignored',
      'kubeResilience.cluster is "Off", not auto, demo or off: ignored',
      'kubeResilience.kubeconfig is 42, not text: ignored',
      'kubeResilience.extraPath is "/opt/bin", not a list of folders: ignored',
    ]);
  });

  it('says so of the Helm, Kustomize and path settings it cannot use too (they were left out without a word)', () => {
    const { settings, said } = read({ extraPath: [5, '/opt/bin'], helm: { releaseName: 4, path: {}, valuesFiles: ['envs/prod.yaml'] }, kustomize: { enablePlugins: 'true', path: 7 } });
    assert.deepEqual([settings.extraPath, settings.helm, settings.kustomize], [['/opt/bin'], { path: undefined, releaseName: undefined, valuesFiles: {} }, { path: undefined, enablePlugins: false }]);
    assert.deepEqual(said, [
      'kubeResilience.helm.valuesFiles is ["envs/prod.yaml"], not an object of chart folders, each with a list of values files: ignored',
      'kubeResilience.extraPath[0] is 5, not text: ignored',
      'kubeResilience.helm.path is {}, not text: ignored',
      'kubeResilience.helm.releaseName is 4, not text: ignored',
      'kubeResilience.kustomize.path is 7, not text: ignored',
      'kubeResilience.kustomize.enablePlugins is "true", not true or false: ignored',
    ]);
    assert.deepEqual(read({ extraPath: null, helm: null, kustomize: { path: null } }).said, [], 'null stands for unset, as for the other settings');
    const unset = read({ enable: null, run: null, cluster: null, rules: null, trusted: null, render: null, kubeconfig: null, helm: { valuesFiles: null }, kustomize: { enablePlugins: null } });
    assert.deepEqual([unset.said, unset.settings], [[], { ...DEFAULT_SETTINGS, kubeconfig: undefined, context: undefined, helm: { path: undefined, releaseName: undefined, valuesFiles: {} }, kustomize: { path: undefined, enablePlugins: false } }], 'null is unset for every setting');
    assert.deepEqual(read({ helm: 'x', kustomize: [1] }).said, ['kubeResilience.helm is "x", not an object: ignored', 'kubeResilience.kustomize is [1], not an object: ignored']);
    const chart = read({ helm: { valuesFiles: { 'charts/web': 'values-prod.yaml', 'charts/api': ['values-prod.yaml', 2] } } });
    assert.deepEqual(chart.settings.helm.valuesFiles, { 'charts/web': [], 'charts/api': ['values-prod.yaml'] });
    assert.deepEqual(chart.said, ['kubeResilience.helm.valuesFiles.charts/web is "values-prod.yaml", not a list of values files: ignored', 'kubeResilience.helm.valuesFiles.charts/api[1] is 2, not text: ignored']);
  });

  it('says when the settings are not an object at all, cut short', () => {
    assert.deepEqual(read('x'.repeat(100)).said, [`the settings are "${'x'.repeat(59)}…, not an object: the defaults are used`]);
    assert.deepEqual(read([1]).said, ['the settings are [1], not an object: the defaults are used']);
  });
});
