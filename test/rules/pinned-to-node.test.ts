import { pinnedToNode } from '../../server/src/rules/pinned-to-node';
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { cluster, clusterFindings, pod } from '../cluster-fixtures';
import { deployment } from './manifests';
import { ruleTester } from './rule-tester';

const db = (podSpec: string) => deployment({ name: 'db', podSpec });
const requiredHosts = (...terms: string[]) =>
  `      affinity:\n        nodeAffinity:\n          requiredDuringSchedulingIgnoredDuringExecution:\n            nodeSelectorTerms:\n${terms.map((t) => `              - matchExpressions:\n${t}`).join('')}`;
const host = (operator: string, values: string) => `                  - key: kubernetes.io/hostname\n                    operator: ${operator}\n                    values: [${values}]\n`;

ruleTester(pinnedToNode, {
  valid: [
    { name: 'a node pool label', code: db('      nodeSelector:\n        cloud.google.com/gke-nodepool: db-pool\n') },
    { name: 'required affinity allowing two hosts', code: db(requiredHosts(host('In', 'node-a, node-b'))) },
    { name: 'one term pins, another allows any host', code: db(requiredHosts(host('In', 'node-a'), '                  - key: disk\n                    operator: In\n                    values: [ssd]\n')) },
    { name: 'NotIn one host avoids it rather than pinning', code: db(requiredHosts(host('NotIn', 'node-a'))) },
    { name: 'a DaemonSet is per node by design', code: db('      nodeName: node-a\n').replace('kind: Deployment', 'kind: DaemonSet') },
  ],
  invalid: [
    {
      name: 'the requirements of one term are ANDed: hosts In [node-a, node-b] and NotIn [node-b] allow node-a only',
      code: db(requiredHosts(host('In', 'node-a, node-b') + host('NotIn', 'node-b'))),
      findings: [{ message: /^Deployment db is pinned to node node-a:/ }],
    },
    {
      name: 'the hostname In [node-a, node-b] and the node\'s name In [node-a] in one term allow node-a only',
      code: db(requiredHosts(host('In', 'node-a, node-b')).replace('              - matchExpressions:\n', '              - matchFields: [{key: metadata.name, operator: In, values: [node-a]}]\n                matchExpressions:\n')),
      findings: [{ message: /^Deployment db is pinned to node node-a:/ }],
    },
    {
      name: 'nodeName',
      code: db('      nodeName: worker-3 # the one with the big disk\n'),
      findings: [
        {
          at: 'nodeName',
          line: 14,
          message:
            'Deployment db is pinned to node worker-3: its pods stay down while that node is. Its nodeName: worker-3 binds it to that node, bypassing the scheduler; if the node dies or is drained, the pods cannot move and stay down until it returns. Select a node label several nodes share (a pool or zone) or use preferred node affinity instead.',
        },
      ],
      output: null,
    },
    {
      name: 'a hostname nodeSelector on a bare Pod',
      code: 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: probe\nspec:\n  nodeSelector:\n    kubernetes.io/hostname: worker-1\n  containers:\n    - name: probe\n      image: busybox\n',
      findings: [{ at: 'kubernetes.io/hostname', message: /^Pod probe is pinned to node worker-1: its pods stay down while that node is\. Its nodeSelector kubernetes.io\/hostname: worker-1 allows only that node; if the node dies/ }],
      output: null,
    },
    {
      name: 'required node affinity whose terms all allow the same single host',
      code: db(requiredHosts(host('In', 'node-a'), host('In', 'node-a'))),
      findings: [{ at: 'requiredDuringSchedulingIgnoredDuringExecution', message: /is pinned to node node-a: .* Its required node affinity allows only node node-a; if the node dies/ }],
      output: null,
    },
  ],
});

it('pinned-to-node does not report pods read from a cluster, which carry the nodeName the scheduler gave them', () => {
  const live = cluster([pod('web-1', { nodeName: 'node-a' }), pod('agent-x', { nodeName: 'node-b' })]);
  assert.deepEqual(clusterFindings(pinnedToNode, live), []);
});
