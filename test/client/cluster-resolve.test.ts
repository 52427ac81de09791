import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveClusterSettings, type ClusterSettingLayers } from '../../client/src/cluster/resolve';

const place = { home: '/home/ada', workspaceFolder: '/work/shop' };
const noExtension = {};

describe('cluster settings resolution', () => {
  it('reads the kubeconfig and context from the workspace in a trusted workspace', () => {
    const layers: ClusterSettingLayers = {
      kubeconfig: { globalValue: '/home/ada/.kube/work', workspaceValue: 'ops/kubeconfig' },
      context: { workspaceValue: 'staging' },
      extraPath: { workspaceValue: ['tools/bin'] },
    };
    assert.deepEqual(resolveClusterSettings(layers, true, noExtension, place), {
      cluster: 'auto',
      kubeconfig: '/work/shop/ops/kubeconfig',
      context: 'staging',
      extraPath: ['/work/shop/tools/bin'],
      trusted: true,
    });
  });

  it('ignores workspace values in an untrusted workspace and marks the settings untrusted', () => {
    const layers: ClusterSettingLayers = {
      kubeconfig: { globalValue: '~/.kube/work', workspaceValue: 'evil/kubeconfig', workspaceFolderValue: 'evil/again' },
      extraPath: { workspaceValue: ['evil/bin'] },
      context: { globalValue: 'prod', workspaceValue: 'attacker' },
    };
    const settings = resolveClusterSettings(layers, false, noExtension, place);
    assert.equal(settings.kubeconfig, '/home/ada/.kube/work');
    assert.equal(settings.context, 'prod');
    assert.deepEqual(settings.extraPath, []);
    assert.equal(settings.trusted, false);
  });

  it('lets a workspace folder value win over the workspace and user values', () => {
    const settings = resolveClusterSettings({ context: { globalValue: 'a', workspaceValue: 'b', workspaceFolderValue: 'c' } }, true, noExtension, place);
    assert.equal(settings.context, 'c');
  });

  it("follows the Kubernetes extension's kubeconfig and context when the settings name none", () => {
    const settings = resolveClusterSettings({ kubeconfig: { globalValue: '  ' } }, true, { kubeconfigPath: '/home/ada/.kube/aks', context: 'aks-west' }, place);
    assert.equal(settings.kubeconfig, '/home/ada/.kube/aks');
    assert.equal(settings.context, 'aks-west');
  });

  it("takes the context setting over the Kubernetes extension's, and does not mix the extension's context into another kubeconfig", () => {
    assert.equal(resolveClusterSettings({ context: { globalValue: 'mine' } }, true, { context: 'theirs' }, place).context, 'mine');
    const ownFile = resolveClusterSettings({ kubeconfig: { globalValue: '/etc/kube/ci' } }, true, { kubeconfigPath: '/x', context: 'theirs' }, place);
    assert.equal(ownFile.kubeconfig, '/etc/kube/ci');
    assert.equal(ownFile.context, undefined);
  });

  it('leaves the kubeconfig to the server (KUBECONFIG, then ~/.kube/config) when nobody names one', () => {
    const settings = resolveClusterSettings({}, true, noExtension, place);
    assert.equal(settings.kubeconfig, undefined);
    assert.equal(settings.cluster, 'auto');
  });

  it('expands ~ and relative paths in each entry of a KUBECONFIG-style list', () => {
    const settings = resolveClusterSettings({ kubeconfig: { globalValue: '~/.kube/a:b/c:/abs/d' } }, true, noExtension, place);
    assert.equal(settings.kubeconfig, '/home/ada/.kube/a:/work/shop/b/c:/abs/d');
  });

  it('accepts demo and off, and reads anything else as auto', () => {
    assert.equal(resolveClusterSettings({ cluster: { globalValue: 'demo' } }, true, noExtension, place).cluster, 'demo');
    assert.equal(resolveClusterSettings({ cluster: { workspaceValue: 'off' } }, true, noExtension, place).cluster, 'off');
    assert.equal(resolveClusterSettings({ cluster: { globalValue: 'bogus' } }, true, noExtension, place).cluster, 'auto');
  });
});
