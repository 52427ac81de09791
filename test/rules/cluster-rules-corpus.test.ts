import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { demoCluster } from '../../server/src/cluster/demo';
import type { ClusterInfo } from '../../server/src/cluster/types';
import { Inventory } from '../../server/src/inventory/inventory';
import { parseManifest } from '../../server/src/manifest/parse';
import { analyzeFile } from '../../server/src/rules/engine';
import { CLUSTER_AWARE_RULES as rules } from '../cluster-fixtures';

/**
 * The GPU, control-plane, DNS and scheduling rules over real manifests written by others: every
 * finding listed here was read and agreed with; anything else is a false positive.
 */

const CORPUS = '../shared/corpus';

const KIND_SINGLE_CONTROL_PLANE = [
  'kind/pkg/internal/apis/config/encoding/testdata/v1alpha4/invalid-bad-indent.yaml',
  'kind/pkg/internal/apis/config/encoding/testdata/v1alpha4/invalid-bogus-field.yaml',
  'kind/pkg/internal/apis/config/encoding/testdata/v1alpha4/valid-kind-patches.yaml',
  'kind/pkg/internal/apis/config/encoding/testdata/v1alpha4/valid-kind-workers-patches.yaml',
  'kind/pkg/internal/apis/config/encoding/testdata/v1alpha4/valid-many-fields.yaml',
  'kind/pkg/internal/apis/config/encoding/testdata/v1alpha4/valid-minimal-two-nodes.yaml',
  'kind/pkg/internal/apis/config/encoding/testdata/v1alpha4/valid-minimal.yaml',
  'kind/pkg/internal/apis/config/encoding/testdata/v1alpha4/valid-port-and-mount.yaml',
  'kind/site/content/docs/user/kind-example-config.yaml',
  'kind/site/static/examples/config-with-mounts.yaml',
  'kind/site/static/examples/config-with-port-mapping.yaml',
  'nvidia-k8s-device-plugin/demo/clusters/kind/scripts/kind-cluster-config.yaml',
].map((file) => `control-plane-single info ${file}`);

/**
 * Node agents without a system-critical priority (hostNetwork monitoring agents, fluentd and a cloud
 * controller manager in kube-system), and the ones that tolerate only some taints. NVIDIA's GPU
 * feature discovery only labels nodes and is not an agent; its device plugin runs at
 * system-node-critical and is meant for GPU nodes only.
 */
const NODE_AGENTS = [
  'node-agent-priority warning kubernetes-examples/_archived/newrelic/newrelic-daemonset.yaml',
  'node-agent-priority warning kubernetes-examples/_archived/newrelic-infrastructure/newrelic-infra-daemonset.yaml',
  'node-agent-priority warning kubernetes-examples/_archived/sysdig-cloud/sysdig-daemonset.yaml',
  'node-agent-priority warning kubernetes-website/content/en/examples/admin/cloud/ccm-example.yaml',
  'node-agent-priority warning kubernetes-website/content/en/examples/controllers/daemonset.yaml',
  'node-agent-priority warning kubernetes-website/content/en/examples/controllers/fluentd-daemonset.yaml',
  'node-agent-untolerated warning kubernetes-examples/_archived/newrelic/newrelic-daemonset.yaml',
  'node-agent-untolerated warning kubernetes-examples/_archived/newrelic-infrastructure/newrelic-infra-daemonset.yaml',
  'node-agent-untolerated warning kubernetes-examples/_archived/sysdig-cloud/sysdig-daemonset.yaml',
  'node-agent-untolerated warning kubernetes-website/content/en/examples/controllers/daemonset.yaml',
  'node-agent-untolerated warning kubernetes-website/content/en/examples/controllers/fluentd-daemonset.yaml',
];

const WITHOUT_CLUSTER = [
  ...KIND_SINGLE_CONTROL_PLANE,
  ...NODE_AGENTS,
  // Upstream CoreDNS leaves replicas unset ("Default is 1"), unless a DNS autoscaler is deployed too.
  'dns-single-point warning coredns-deployment/kubernetes/coredns.yaml.sed',
  // A GKE example: GKE adds the toleration itself, other clusters do not; the message says so, at info.
  'gpu-untolerated info kubernetes-examples/AI/vllm-deployment/vllm-deployment.yaml',
  'gpu-keeps-nodes-up info kubernetes-examples/AI/vllm-deployment/vllm-deployment.yaml',
];

const WITH_DEMO_CLUSTER = [
  ...WITHOUT_CLUSTER.filter((f) => !f.startsWith('gpu-untolerated')),
  // The demo's GPU node is tainted nvidia.com/gpu=present:NoSchedule and the example has no toleration.
  'gpu-untolerated warning kubernetes-examples/AI/vllm-deployment/vllm-deployment.yaml',
  'unschedulable error kubernetes-examples/AI/vllm-deployment/vllm-deployment.yaml',
  // The Job template binds its pod by nodeName to the placeholder NODE_NAME, which no node is called.
  'unschedulable error nvidia-k8s-device-plugin/deployments/static/gpu-feature-discovery-job.yaml.template',
];

function manifestPaths(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return manifestPaths(path);
    return /\.(ya?ml|json|sed|template)$/.test(name) ? [path] : [];
  });
}

function findingsOverCorpus(cluster?: ClusterInfo): string[] {
  const inventory = new Inventory();
  if (cluster) inventory.setCluster(cluster.resources);
  const files = manifestPaths(CORPUS).map((path) => parseManifest(`file:///corpus/${relative(CORPUS, path)}`, readFileSync(path, 'utf8')));
  for (const file of files) inventory.setFile(file);
  return files
    .flatMap((file) => analyzeFile(file, inventory, { rules, cluster }).map((f) => `${f.ruleId} ${f.severity} ${file.uri.slice('file:///corpus/'.length)}`))
    .sort();
}

describe('GPU, control-plane, DNS and scheduling rules over the corpus', { skip: existsSync(CORPUS) ? false : `no corpus at ${CORPUS}` }, () => {
  it('without a cluster: only the findings an SRE agreed with', () => {
    assert.deepEqual(findingsOverCorpus(), [...WITHOUT_CLUSTER].sort());
  });

  it('with the demo cluster: the same, plus what its tainted GPU node and missing nodes make true', () => {
    assert.deepEqual(findingsOverCorpus(demoCluster()), [...WITH_DEMO_CLUSTER].sort());
  });
});
