import type { ClusterInfo } from '../cluster/types';
import type { Inventory } from '../inventory/inventory';
import { describeNodeAgent, isNetworkAgent, nodeAgentOf, agentDuty, type NodeAgent } from '../manifest/node-agent';
import type { Resource } from '../manifest/parse';
import { isNodeNotReady, judgeNode, placementInput } from '../manifest/scheduling';
import { describeResource, isPodReady, podTemplateOf } from '../manifest/workload';
import { namesListed, plural } from '../words';
import type { Rule } from './types';
import { knownNodes } from './unschedulable';

const MAX_NAMED_NODES = 5;

/** Why the agent does not serve this node: no pod there, or a pod that is not ready. */
function absence(node: Resource, pods: readonly Resource[]): string | undefined {
  const here = pods.filter((p) => p.object?.spec?.nodeName === node.name);
  if (here.some(isPodReady)) return undefined;
  const state = isNodeNotReady(node) ? ', node NotReady' : '';
  if (!here.length) return `${node.name} (no pod${state})`;
  const pod = here[0];
  return `${node.name} (pod ${pod.name} not ready: ${pod.object?.status?.reason ?? pod.object?.status?.phase ?? 'unknown'}${state})`;
}

function missingOn(daemonSet: Resource, agent: NodeAgent, inventory: Inventory, cluster: ClusterInfo): { nodes: string[]; eligible: number } | undefined {
  const nodes = knownNodes(cluster);
  const template = podTemplateOf(daemonSet);
  if (!nodes || !template) return undefined;
  const input = placementInput('DaemonSet', template);
  // Nodes its selectors and tolerations admit; a node too full for it still should run it.
  const eligible = nodes.filter((node) => {
    const verdict = judgeNode(input, node);
    return verdict.fits || verdict.kind === 'resources';
  });
  const pods = inventory.podsOf(daemonSet);
  const missing = eligible.map((node) => absence(node, pods)).filter((m): m is string => !!m);
  return missing.length ? { nodes: missing, eligible: eligible.length } : undefined;
}

export const nodeAgentMissing: Rule = {
  meta: {
    id: 'node-agent-missing',
    severity: 'warning',
    scenario: 'node-agents',
    title: 'A node where kube-proxy or the CNI agent is not running',
    description:
      'kube-proxy programs the node\'s Service routing and the CNI agent (calico-node, cilium, flannel, weave-net, aws-node, antrea-agent, kube-router) its pod networking. On a node that should run them (their selectors and tolerations admit it) but has no ready pod of them, Services do not route from that node or new pods there get no network, while the scheduler keeps placing pods on it. A node whose taint the agent does not tolerate is `node-agent-untolerated`\'s finding. Needs a cluster: it reads the nodes, the DaemonSets and their pods.',
    needsCluster: true,
  },
  check({ file, resources, inventory, cluster, report }) {
    if (file || !cluster || cluster.missing.some((m) => /^(pods?|nodes?)$/i.test(m.resource))) return;
    for (const daemonSet of resources) {
      const agent = nodeAgentOf(daemonSet);
      if (!agent || !isNetworkAgent(agent)) continue;
      const found = missingOn(daemonSet, agent, inventory, cluster);
      if (!found) continue;
      const named = namesListed(found.nodes, MAX_NAMED_NODES);
      report({
        resource: daemonSet,
        message: `${describeResource(daemonSet)} is missing on ${found.nodes.length} of ${plural(found.eligible, 'node')}: they have no ${agentDuty(agent)}. ${describeNodeAgent(daemonSet, agent)} in cluster ${cluster.name} should run on ${named}, but does not, while the scheduler keeps placing pods there.`,
      });
    }
  },
};
