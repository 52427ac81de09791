import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { kubeconfigPaths, listContexts, readKubeconfigFile } from '../../server/src/cluster/contexts';

const work = `
apiVersion: v1
kind: Config
current-context: prod
clusters:
  - name: prod-cluster
    cluster: { server: https://prod.example:6443 }
contexts:
  - name: prod
    context: { cluster: prod-cluster, user: ada, namespace: shop }
  - name: staging
    context: { cluster: staging-cluster, user: ada }
users:
  - name: ada
    user:
      exec: { command: kubelogin, apiVersion: client.authentication.k8s.io/v1 }
`;

const personal = `
current-context: kind-dev
contexts:
  - name: kind-dev
    context: { cluster: kind-dev, user: kind-dev }
  - name: prod
    context: { cluster: somewhere-else, user: bob }
`;

describe('kubeconfig context listing', () => {
  it('merges files like kubectl: first definition and first current-context win, names sorted', () => {
    const listing = listContexts([
      { path: '/k/work', text: work },
      { path: '/k/missing', text: undefined },
      { path: '/k/personal', text: personal },
    ]);
    assert.deepEqual(
      listing.contexts.map((c) => [c.name, c.cluster, c.file]),
      [
        ['kind-dev', 'kind-dev', '/k/personal'],
        ['prod', 'prod-cluster', '/k/work'],
        ['staging', 'staging-cluster', '/k/work'],
      ],
    );
    assert.equal(listing.current, 'prod');
    assert.equal(listing.contexts.find((c) => c.name === 'prod')?.namespace, 'shop');
    assert.deepEqual(listing.problems, []);
  });

  it('reports a file that is not YAML or not a kubeconfig, and keeps the others', () => {
    const listing = listContexts([
      { path: '/k/broken', text: 'contexts: [\n  - name: x\n' },
      { path: '/k/list', text: '- a\n- b\n' },
      { path: '/k/twice', text: 'contexts: []\ncontexts: []\n' },
      { path: '/k/personal', text: personal },
    ]);
    assert.deepEqual(listing.contexts.map((c) => c.name), ['kind-dev', 'prod']);
    assert.equal(listing.problems.length, 3);
    assert.match(listing.problems[0], /^\/k\/broken: /);
    assert.match(listing.problems[1], /^\/k\/list: not a kubeconfig/);
    assert.equal(listing.problems[2], '/k/twice: Map keys must be unique at line 2, column 1', 'a key written twice, as kubectl refuses it');
  });

  it('skips empty files and contexts without a name', () => {
    const listing = listContexts([
      { path: '/k/empty', text: '\n' },
      { path: '/k/odd', text: 'contexts:\n  - context: { cluster: c }\n  - name: ok\n' },
    ]);
    assert.deepEqual(listing.contexts.map((c) => c.name), ['ok']);
    assert.equal(listing.current, undefined);
  });

  it('picks the files as kubectl does: the named path(s), else KUBECONFIG, else ~/.kube/config', () => {
    assert.deepEqual(kubeconfigPaths('/a:/b', { KUBECONFIG: '/c' }, '/home/ada'), ['/a', '/b']);
    assert.deepEqual(kubeconfigPaths(undefined, { KUBECONFIG: '/c::/d' }, '/home/ada'), ['/c', '/d']);
    assert.deepEqual(kubeconfigPaths(undefined, { KUBECONFIG: '' }, '/home/ada'), ['/home/ada/.kube/config']);
  });
});

describe('reading kubeconfig files for the context picker', () => {
  it('refuses a device, a FIFO and a huge file at once, and says why', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kr-client-kubeconfig-'));
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const huge = join(dir, 'huge');
    writeFileSync(huge, '');
    truncateSync(huge, 17 * 1024 * 1024);
    const files = ['/dev/zero', fifo, huge, join(dir, 'absent')].map(readKubeconfigFile);
    assert.deepEqual(files.map((f) => f.problem), ['not a regular file (a device)', 'not a regular file (a FIFO)', 'larger than 16 MB', undefined]);
    assert.deepEqual(listContexts(files).problems, [`/dev/zero: not a regular file (a device)`, `${fifo}: not a regular file (a FIFO)`, `${huge}: larger than 16 MB`]);
  });
});
