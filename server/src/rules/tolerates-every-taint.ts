import type { ClusterInfo } from '../cluster/types';
import { ownedByAnother } from '../inventory/inventory';
import { isClusterAddon } from '../manifest/addon';
import { catchAllFor, effectsToleratedEverywhere } from '../manifest/node-agent';
import type { Resource } from '../manifest/parse';
import { isConditionTaint, matchesNodeSelector, matchesRequiredNodeAffinity, nodeAllocatable, nodeLabels, nodeTaints, podTolerations, type Toleration } from '../manifest/scheduling';
import { describeResource, podTemplateOf, type PodTemplate } from '../manifest/workload';
import { plural } from '../words';
import { exampleDeployment } from './example-workload';
import { gpuRequests, isGpuResource } from './gpu-resources';
import type { Rule } from './types';
import { knownNodes } from './unschedulable';

/** The live nodes a pool's taint would otherwise keep the pods off: "3 tainted nodes (2 with GPUs)". */
function taintedNodesInReach(template: PodTemplate, cluster: ClusterInfo | undefined): string {
  const nodes = knownNodes(cluster);
  if (!nodes) return '';
  const reachable = nodes.filter(
    (n) =>
      nodeTaints(n).some((t) => t.effect === 'NoSchedule' && !isConditionTaint(t)) &&
      matchesNodeSelector(template.spec.nodeSelector, nodeLabels(n)) &&
      matchesRequiredNodeAffinity(template.spec, n),
  );
  if (!reachable.length) return '';
  const gpus = reachable.filter((n) => Object.entries(nodeAllocatable(n)).some(([name, amount]) => isGpuResource(name) && amount > 0)).length;
  return ` (in cluster ${cluster!.name}: ${plural(reachable.length, 'tainted node')}${gpus ? `, ${gpus} with GPUs` : ''}: ${reachable.slice(0, 5).map((n) => n.name).join(', ')}${reachable.length > 5 ? ', …' : ''})`;
}

export const toleratesEveryTaint: Rule = {
  meta: {
    id: 'tolerates-every-taint',
    severity: 'warning',
    scenario: 'node-agents',
    title: 'An application that tolerates every taint',
    description:
      'A toleration with `operator: Exists` and no key tolerates every taint. That is right for a node agent (a DaemonSet that must run on every node), and wrong for an application: taints are how GPU pools, control-plane nodes and dedicated pools keep ordinary pods off. Such pods may land on the control plane and take its memory, fill a GPU node\'s CPU and memory so GPU pods find no room, make the cluster autoscaler add a node of a tainted pool for a pending pod, and keep a GPU node up while they run there (the autoscaler removes it only if they can move elsewhere), so the GPU pool does not scale to zero. Without an effect (or with `NoExecute`) it also tolerates `node.kubernetes.io/unreachable` and `not-ready` for ever: when the pod\'s node dies, the pod is never evicted and so never replaced. DaemonSets, add-ons in `kube-system` and workloads that request GPUs (for the `NoSchedule` part) are not reported.',
    example: exampleDeployment(
      `        - name: app
          image: example/orders:2.1
`,
    ).replace('    spec:\n      containers:', '    spec:\n      tolerations:\n        - operator: Exists\n      containers:'),
  },
  check({ resources, cluster, report }) {
    for (const resource of resources) {
      if (resource.kind === 'DaemonSet' || ownedByAnother(resource) || isClusterAddon(resource)) continue;
      const template = podTemplateOf(resource);
      if (!template) continue;
      const effects = effectsToleratedEverywhere(template.spec);
      if (!effects.length) continue;
      const catchAlls = podTolerations(template.spec)
        .map((toleration, index) => ({ toleration, index }))
        .filter(({ toleration }) => effects.some((effect) => catchAllFor(toleration, effect)));
      const parts = partsOf(resource, template, catchAlls, cluster);
      if (!parts.length) continue;
      const [first, ...others] = catchAlls.filter((c) => parts.some((p) => p.causes.includes(c)));
      const inShort = parts.length === 2 ? 'it may run on tainted pools, and never leaves a dead node' : parts[0].inShort;
      const effect = effects.length === 1 ? ` for effect ${effects[0]}` : '';
      const operatorOf = (c: CatchAll) => [...template.path, 'spec', 'tolerations', indexInSource(template, c.index), 'operator'];
      report({
        resource,
        // The catch-all toleration's own `operator: Exists`: the first of those the finding is about.
        path: operatorOf(first),
        target: 'pair',
        message: `${describeResource(resource)} tolerates every taint${effect}: ${inShort}. It has \`operator: Exists\` without a key: ${parts.map((p) => p.text).join('; ')}. Tolerate the taints it needs by key instead.`,
        related: others.map((c) => ({ resource, path: operatorOf(c), message: `also \`operator: Exists\` without a key${c.toleration.effect ? `, for effect ${c.toleration.effect}` : ''}` })),
      });
    }
  },
};

/** podTolerations drops items that are not mappings; the finding points at the item as written. */
function indexInSource(template: PodTemplate, index: number): number {
  const written: unknown[] = Array.isArray(template.spec.tolerations) ? template.spec.tolerations : [];
  let seen = -1;
  for (let i = 0; i < written.length; i++) {
    if (written[i] && typeof written[i] === 'object') seen++;
    if (seen === index) return i;
  }
  return index;
}

/** A toleration that matches every taint of some blocking effect, and its place among the pod's tolerations. */
interface CatchAll {
  toleration: Toleration;
  index: number;
}

/** What the catch-all tolerations let happen: in a few words, in full, and which of them let it. */
interface Consequence {
  inShort: string;
  text: string;
  causes: CatchAll[];
}

function partsOf(resource: Resource, template: PodTemplate, catchAlls: CatchAll[], cluster: ClusterInfo | undefined): Consequence[] {
  const parts: Consequence[] = [];
  const noSchedule = catchAlls.filter((c) => catchAllFor(c.toleration, 'NoSchedule'));
  if (noSchedule.length && !gpuRequests(resource).length) {
    parts.push({
      inShort: 'it may run on tainted pools (GPU, control plane, dedicated)',
      text: `the scheduler may put its pods on GPU nodes, control-plane nodes and dedicated pools${taintedNodesInReach(template, cluster)}, where they take room meant for those nodes' own pods; a pending one can make the cluster autoscaler add a node of a tainted pool for it, and while one runs on a GPU node the autoscaler removes that node only if the pod can move elsewhere, so the GPU pool may not scale to zero`,
      causes: noSchedule,
    });
  }
  // The taint manager goes by the first toleration that matches a taint: a later catch-all's lack of tolerationSeconds counts for nothing.
  const noExecute = catchAlls.find((c) => catchAllFor(c.toleration, 'NoExecute'));
  if (noExecute && typeof noExecute.toleration.tolerationSeconds !== 'number' && resource.kind !== 'Pod') {
    parts.push({
      inShort: 'its pods are never moved off a dead node',
      text: 'it also tolerates node.kubernetes.io/unreachable and not-ready for ever, so when its node dies its pods are never evicted and never replaced',
      causes: [noExecute],
    });
  }
  return parts;
}
