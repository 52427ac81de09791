import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, it } from 'node:test';
import { ClusterError } from '../../server/src/cluster/errors';
import { resolveKubeconfig } from '../../server/src/cluster/kubeconfig';
import { tempDir, writeKubeconfig } from './kubeconfig-fixtures';

function errorOf(run: () => unknown): ClusterError {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ClusterError, `expected a ClusterError, got ${error}`);
    return error;
  }
  assert.fail('expected an error');
}

describe('which kubeconfig and context', () => {
  const dir = tempDir();
  const first = writeKubeconfig(join(dir, 'first'), [{ name: 'prod', server: 'https://prod.example:6443' }, { name: 'shared', server: 'https://from-first.example' }], 'prod');
  const second = writeKubeconfig(join(dir, 'second'), [{ name: 'staging', server: 'https://staging.example' }, { name: 'shared', server: 'https://from-second.example' }], 'staging');

  it('merges KUBECONFIG files like kubectl: the first current-context wins, every file adds contexts', () => {
    const env = { KUBECONFIG: [first, second].join(delimiter) };
    const resolved = resolveKubeconfig({ env });
    assert.equal(resolved.context.name, 'prod');
    assert.equal(resolved.cluster.server, 'https://prod.example:6443');
    assert.deepEqual(resolved.files, [first, second]);
    const staging = resolveKubeconfig({ env, context: 'staging' });
    assert.equal(staging.cluster.server, 'https://staging.example');
  });

  it('lets the first file win when two define the same name', () => {
    const resolved = resolveKubeconfig({ env: { KUBECONFIG: [first, second].join(delimiter) }, context: 'shared' });
    assert.equal(resolved.cluster.server, 'https://from-first.example');
    const reversed = resolveKubeconfig({ env: { KUBECONFIG: [second, first].join(delimiter) }, context: 'shared' });
    assert.equal(reversed.cluster.server, 'https://from-second.example');
    assert.equal(reversed.context.name, 'shared');
  });

  it('skips KUBECONFIG entries that do not exist, as kubectl does', () => {
    const resolved = resolveKubeconfig({ env: { KUBECONFIG: [join(dir, 'absent'), second].join(delimiter) } });
    assert.equal(resolved.context.name, 'staging');
  });

  it('prefers the setting over the path the client handed over, and that over KUBECONFIG', () => {
    const env = { KUBECONFIG: first };
    assert.equal(resolveKubeconfig({ env, handedOver: second }).context.name, 'staging');
    assert.equal(resolveKubeconfig({ env, handedOver: second, explicit: first }).context.name, 'prod');
  });

  it('falls back to ~/.kube/config', () => {
    const home = tempDir();
    assert.equal(errorOf(() => resolveKubeconfig({ env: {}, home })).kind, 'no-kubeconfig');
    const kube = join(home, '.kube');
    mkdirSync(kube);
    writeKubeconfig(join(kube, 'config'), [{ name: 'home', server: 'https://home.example' }], 'home');
    assert.equal(resolveKubeconfig({ env: {}, home }).context.name, 'home');
  });

  it('names the context and the file when the context is unknown', () => {
    const error = errorOf(() => resolveKubeconfig({ explicit: first, context: 'nope' }));
    assert.equal(error.kind, 'config');
    assert.match(error.message, /context "nope" is not in kubeconfig .*first/);
    assert.match(error.message, /known contexts: prod, shared/);
  });

  it('refuses a context that names a user the kubeconfig lacks (its requests went out anonymously), and reads one with no user', () => {
    const path = join(dir, 'missing-user');
    writeFileSync(path, 'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://c.example"}}]\ncontexts: [{name: typo, context: {cluster: c, user: nobody}}, {name: anonymous, context: {cluster: c}}]\nusers: [{name: somebody, user: {token: t}}]\n');
    const error = errorOf(() => resolveKubeconfig({ explicit: path, context: 'typo' }));
    assert.equal(error.kind, 'config');
    assert.match(error.message, /context "typo" names user "nobody", which kubeconfig .*missing-user does not define/);
    assert.equal(resolveKubeconfig({ explicit: path, context: 'anonymous' }).user.name, '');
  });

  it('names a kubeconfig set by hand that does not exist', () => {
    const missing = join(dir, 'missing-config');
    const error = errorOf(() => resolveKubeconfig({ explicit: missing }));
    assert.match(error.message, new RegExp(`kubeconfig ${missing.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} does not exist`));
  });

  it('names a broken file and says what is wrong', () => {
    const broken = join(dir, 'broken');
    writeFileSync(broken, 'clusters:\n  - name: a\n    cluster: {server: "x"\n');
    const error = errorOf(() => resolveKubeconfig({ explicit: broken }));
    assert.equal(error.kind, 'config');
    assert.match(error.message, /kubeconfig .*broken is not valid: /);
  });

  it('leaves out a context kubectl itself writes without a cluster, as kubectl does, and says so only when that context is asked for', () => {
    const written = writeKubeconfig(join(dir, 'set-context'), [{ name: 'x', server: 'https://c.example', token: 't' }, { name: 'dev', server: '', cluster: false, namespace: 'scratch' }], 'x');
    assert.equal(resolveKubeconfig({ explicit: written }).cluster.server, 'https://c.example');
    assert.match(errorOf(() => resolveKubeconfig({ explicit: written, context: 'dev' })).message, /^context "dev" cannot be used: kubeconfig .*set-context defines context "dev" without a cluster/);
  });

  it('takes an unusable context or cluster of the first file that defines it, as kubectl does, not a later file\'s of that name', () => {
    const first = writeKubeconfig(join(dir, 'first'), [{ name: 'dev', server: '', cluster: false, namespace: 'scratch' }, { name: 'uses-broken', server: '' }]);
    const second = writeKubeconfig(join(dir, 'second'), [{ name: 'dev', server: 'https://prod.example' }, { name: 'uses-broken', server: 'https://other.example' }]);
    const merged = `${first}${delimiter}${second}`;
    assert.match(errorOf(() => resolveKubeconfig({ explicit: merged, context: 'dev' })).message, /^context "dev" cannot be used: kubeconfig .*first defines context "dev" without a cluster/);
    assert.match(
      errorOf(() => resolveKubeconfig({ explicit: merged, context: 'uses-broken' })).message,
      /^context "uses-broken" names cluster "uses-broken-cluster", which cannot be used: kubeconfig .*first defines cluster "uses-broken-cluster" without a server/,
    );
    const secondFirst = `${second}${delimiter}${first}`;
    assert.equal(resolveKubeconfig({ explicit: secondFirst, context: 'dev' }).cluster.server, 'https://prod.example', 'a usable context defined first wins');
    assert.equal(resolveKubeconfig({ explicit: secondFirst, context: 'uses-broken' }).cluster.server, 'https://other.example', 'and a usable cluster');
  });

  it('says a field of the wrong type is one, not only in client-node\'s words (server: 5 was ".replace is not a function")', () => {
    const typed = join(dir, 'typed');
    writeFileSync(typed, 'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: 5}}]\nusers: [{name: u, user: {token: t}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n');
    assert.match(errorOf(() => resolveKubeconfig({ explicit: typed })).message, /kubeconfig .*typed is not valid: a field holds another type of value than kubectl reads there/);
  });

  it('says so when no context is chosen', () => {
    const none = writeKubeconfig(join(dir, 'no-current'), [{ name: 'a', server: 'https://a.example' }]);
    assert.match(errorOf(() => resolveKubeconfig({ explicit: none })).message, /sets no current-context; choose one of: a/);
  });
});
