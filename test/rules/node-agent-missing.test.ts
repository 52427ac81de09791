import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nodeAgentMissing } from '../../server/src/rules/node-agent-missing';
import { cluster, clusterFindings, fromObject, gpuNode, node, pod } from '../cluster-fixtures';
import type { Resource } from '../../server/src/manifest/parse';

const labels = { 'k8s-app': 'kube-proxy' };

function daemonSet(name: string, image: string, podSpec: Record<string, unknown> = {}): Resource {
  return fromObject({
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, namespace: 'kube-system' },
    spec: { selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { priorityClassName: 'system-node-critical', containers: [{ name, image }], ...podSpec } } },
  });
}

const proxy = daemonSet('kube-proxy', 'registry.k8s.io/kube-proxy:v1.33.4', { tolerations: [{ operator: 'Exists' }], nodeSelector: { 'kubernetes.io/os': 'linux' } });
const proxyPod = (nodeName: string, ready = true) => pod(`kube-proxy-${nodeName}`, { namespace: 'kube-system', labels, nodeName, ready });
const notReadyNode = (name: string) => {
  const n = node(name);
  n.object.status.conditions = [{ type: 'Ready', status: 'False', reason: 'KubeletNotReady' }];
  return n;
};

describe('node-agent-missing', () => {
  it('names the nodes without a ready kube-proxy pod, and belongs to no file', () => {
    const info = cluster([node('cp-1', { controlPlane: true }), node('w-1'), node('w-2'), notReadyNode('w-3'), gpuNode('gpu-1'), proxy, proxyPod('cp-1'), proxyPod('w-1'), proxyPod('w-2', false), proxyPod('gpu-1')], { name: 'lab' });
    const findings = clusterFindings(nodeAgentMissing, info);
    assert.deepEqual(
      findings.map((f) => [f.message, f.uri, f.range, f.resource?.name, f.severity]),
      [
        [
          'DaemonSet kube-system/kube-proxy is missing on 2 of 5 nodes: they have no Service routing. DaemonSet kube-system/kube-proxy in cluster lab should run on w-2 (pod kube-proxy-w-2 not ready: Running) and w-3 (no pod, node NotReady), but does not, while the scheduler keeps placing pods there.',
          null,
          null,
          'kube-proxy',
          'warning',
        ],
      ],
    );
  });

  it('leaves out nodes its selectors or taints keep it off (untolerated taints are node-agent-untolerated\'s), and log agents', () => {
    const calico = daemonSet('calico-node', 'docker.io/calico/node:v3.29.1', { nodeSelector: { 'kubernetes.io/os': 'linux' } });
    const fluent = daemonSet('fluent-bit', 'cr.fluentbit.io/fluent/fluent-bit:3.2');
    const windows = node('win-1', { labels: { 'kubernetes.io/os': 'windows' } });
    const info = cluster([node('cp-1', { controlPlane: true }), node('w-1'), windows, proxy, calico, fluent, proxyPod('w-1'), proxyPod('cp-1')]);
    // calico-node's pods carry the same labels in this fixture: w-1 and cp-1 (tainted, untolerated) are all it should serve.
    assert.deepEqual(clusterFindings(nodeAgentMissing, info).map((f) => f.resource?.name), []);
  });

  it('says nothing when pods or nodes could not be read, or about manifests', () => {
    const info = cluster([node('w-1'), proxy], { missing: [{ resource: 'pods', reason: 'forbidden' }] });
    assert.deepEqual(clusterFindings(nodeAgentMissing, info), []);
  });
});
