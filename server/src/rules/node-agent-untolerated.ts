import { appendToSequence } from '../fixes/yaml-edit';
import type { Resource } from '../manifest/parse';
import { agentDuty, describeNodeAgent, effectsToleratedEverywhere, nodeAgentOf, targetsSomeNodes } from '../manifest/node-agent';
import { describeTaint, isConditionTaint, judgeNode, matchesNodeSelector, matchesRequiredNodeAffinity, nodeLabels, nodeTaints, placementInput, podTolerations, untoleratedTaints } from '../manifest/scheduling';
import { describeResource, podTemplateOf, type PodTemplate } from '../manifest/workload';
import { namesListed, plural } from '../words';
import type { Rule, Severity } from './types';
import { knownNodes } from './unschedulable';
import type { ClusterInfo } from '../cluster/types';

const MAX_NAMED_NODES = 5;

/** What the agent tolerates now, in words. */
function toleratesNow(template: PodTemplate): string {
  const everywhere = effectsToleratedEverywhere(template.spec);
  if (everywhere.length) return `tolerates every ${everywhere.join(' and ')} taint but no ${everywhere.includes('NoSchedule') ? 'NoExecute' : 'NoSchedule'} taint`;
  const keyed = podTolerations(template.spec).filter((t) => t.key);
  if (!keyed.length) return 'tolerates no taint';
  return `tolerates only ${keyed.map((t) => `${t.key}${t.effect ? `:${t.effect}` : ''}`).join(', ')}`;
}

/** Live nodes the agent would run on but for a taint, each with the taints that keep it off. */
function taintedAway(template: PodTemplate, nodes: readonly Resource[]): string[] {
  const input = placementInput('DaemonSet', template);
  return nodes
    .filter((node) => matchesNodeSelector(template.spec.nodeSelector, nodeLabels(node)) && matchesRequiredNodeAffinity(template.spec, node))
    .filter((node) => judgeNode(input, node).kind === 'taint')
    .map((node) => {
      const taints = untoleratedTaints(nodeTaints(node), [...podTolerations(template.spec), ...(input.extraTolerations ?? [])]).filter((t) => !isConditionTaint(t));
      return `${node.name} (${taints.map(describeTaint).join(', ')})`;
    });
}

function where(template: PodTemplate, cluster: ClusterInfo | undefined): { text: string; severity?: Severity } {
  const nodes = knownNodes(cluster);
  const generic = effectsToleratedEverywhere(template.spec).includes('NoSchedule')
    ? 'a node tainted NoExecute (a dedicated pool, a node taken out of service) evicts it and runs without it'
    : 'nodes of a tainted pool (GPU nodes tainted nvidia.com/gpu, control-plane nodes tainted node-role.kubernetes.io/control-plane, a dedicated pool) run without it';
  if (!nodes) return { text: generic };
  const away = taintedAway(template, nodes);
  if (!away.length) return { text: `no node of cluster ${cluster!.name} keeps it off now, but ${generic}`, severity: 'info' };
  const named = namesListed(away, MAX_NAMED_NODES);
  return { text: `in cluster ${cluster!.name}, ${plural(away.length, 'node')} run${away.length === 1 ? 's' : ''} without it: ${named}` };
}

export const nodeAgentUntolerated: Rule = {
  meta: {
    id: 'node-agent-untolerated',
    severity: 'warning',
    scenario: 'node-agents',
    title: 'A node agent that does not tolerate every taint',
    description:
      'A DaemonSet runs a pod only on nodes whose taints it tolerates. The DaemonSet controller adds tolerations for the node-condition taints (not-ready, unreachable, memory and disk pressure, unschedulable) but not for the taints that set pools apart: GPU nodes (`nvidia.com/gpu`), control-plane nodes (`node-role.kubernetes.io/control-plane`), dedicated pools. A node agent (kube-proxy, a CNI agent, node-local-dns, a CSI node plugin, a log or metrics agent, or any DaemonSet in `kube-system` or on the host network) that tolerates only some taints leaves those nodes without Service routing, networking, DNS, volume mounts, logs or metrics, often unnoticed until a pod there fails. A toleration with `operator: Exists` and no key tolerates every taint. Agents that pick their nodes (a `nodeSelector` or required node affinity on a label other than the OS and architecture) and device plugins are meant for some nodes only and are not reported. With a cluster, the finding names the live nodes the agent cannot run on.',
    fix: 'Adds the toleration `- operator: Exists` (every key, every effect).',
    example: `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: fluent-bit
  namespace: logging
spec:
  selector:
    matchLabels:
      app: fluent-bit
  template:
    metadata:
      labels:
        app: fluent-bit
    spec:
      priorityClassName: system-node-critical
      tolerations:
        - key: node-role.kubernetes.io/control-plane
          effect: NoSchedule
      containers:
        - name: fluent-bit
          image: cr.fluentbit.io/fluent/fluent-bit:3.2
`,
  },
  check({ resources, cluster, report }) {
    for (const resource of resources) {
      const agent = nodeAgentOf(resource);
      const template = podTemplateOf(resource);
      if (!agent || !template || agent.role === 'hardware' || targetsSomeNodes(template.spec)) continue;
      if (effectsToleratedEverywhere(template.spec).length === 2) continue;
      const path = [...template.path, 'spec', 'tolerations'];
      const { text, severity } = where(template, cluster);
      report({
        resource,
        path,
        severity,
        message: `${describeResource(resource)} does not run on tainted nodes: they go without it. ${describeNodeAgent(resource, agent)} ${toleratesNow(template)}: ${text}${agent.role ? `, and pods there get no ${agentDuty(agent)}` : ''}. Tolerate every taint with \`- operator: Exists\`.`,
        fixes: () => [{ title: 'Tolerate every taint (operator: Exists)', preferred: true, edits: appendToSequence(resource, path, { operator: 'Exists' }) ?? [] }],
      });
    }
  },
};
