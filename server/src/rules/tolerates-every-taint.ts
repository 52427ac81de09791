import type { ClusterInfo } from '../cluster/types';
import { ownedByAnother } from '../inventory/inventory';
import { isClusterAddon } from '../manifest/addon';
import { catchAllFor, effectsToleratedEverywhere } from '../manifest/node-agent';
import type { Resource } from '../manifest/parse';
import { isConditionTaint, matchesNodeSelector, matchesRequiredNodeAffinity, NODE_LOSS_TAINTS, nodeAllocatable, nodeLabels, nodeLossTolerationSeconds, nodeTaints, podTolerations, type NodeLossTaint, type Toleration } from '../manifest/scheduling';
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
      'A toleration with `operator: Exists` and no key tolerates every taint. That is right for a node agent (a DaemonSet that must run on every node), and wrong for an application: taints are how GPU pools, control-plane nodes and dedicated pools keep ordinary pods off. Such pods may land on the control plane and take its memory, fill a GPU node\'s CPU and memory so GPU pods find no room, make the cluster autoscaler add a node of a tainted pool for a pending pod, and keep a GPU node up while they run there (the autoscaler removes it only if they can move elsewhere), so the GPU pool does not scale to zero. Without an effect (or with `NoExecute`) it also tolerates `node.kubernetes.io/unreachable` and `not-ready` for ever: when the pod\'s node dies, the pod is never evicted and so never replaced; a toleration of one of them by key written before it still holds, as the taint manager goes by the first toleration that matches each taint. DaemonSets, add-ons in `kube-system` and workloads that request GPUs (for the `NoSchedule` part) are not reported.',
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
      const { parts, notes } = consequencesOf(resource, template, catchAlls, cluster);
      if (!parts.length) continue;
      const [first, ...others] = catchAlls.filter((c) => parts.some((p) => p.causes.includes(c)));
      const inShort = parts.length === 1 ? parts[0].inShort : parts.map((p) => p.besideAnother).join(', and ');
      const effect = effects.length === 1 ? ` for effect ${effects[0]}` : '';
      const operatorOf = (c: CatchAll) => [...template.path, 'spec', 'tolerations', indexInSource(template, c.index), 'operator'];
      report({
        resource,
        // The catch-all toleration's own `operator: Exists`: the first of those the finding is about.
        path: operatorOf(first),
        target: 'pair',
        message: `${describeResource(resource)} tolerates every taint${effect}: ${inShort}. It has \`operator: Exists\` without a key: ${[...parts.map((p) => p.text), ...notes].join('; ')}. Tolerate the taints it needs by key instead.`,
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

/** What the catch-all tolerations let happen: in a few words (alone, and beside another), in full, and which of them let it. */
interface Consequence {
  inShort: string;
  besideAnother: string;
  text: string;
  causes: CatchAll[];
}

/** The consequences, and what its other tolerations change of them. */
interface Consequences {
  parts: Consequence[];
  notes: string[];
}

function consequencesOf(resource: Resource, template: PodTemplate, catchAlls: CatchAll[], cluster: ClusterInfo | undefined): Consequences {
  const parts: Consequence[] = [];
  const notes: string[] = [];
  const noSchedule = catchAlls.filter((c) => catchAllFor(c.toleration, 'NoSchedule'));
  if (noSchedule.length && !gpuRequests(resource).length) {
    parts.push({
      inShort: 'it may run on tainted pools (GPU, control plane, dedicated)',
      besideAnother: 'it may run on tainted pools',
      text: `the scheduler may put its pods on GPU nodes, control-plane nodes and dedicated pools${taintedNodesInReach(template, cluster)}, where they take room meant for those nodes' own pods; a pending one can make the cluster autoscaler add a node of a tainted pool for it, and while one runs on a GPU node the autoscaler removes that node only if the pod can move elsewhere, so the GPU pool may not scale to zero`,
      causes: noSchedule,
    });
  }
  // The taint manager goes by the first toleration that matches a taint: the first catch-all for NoExecute, unless one by key comes before it.
  const noExecute = catchAlls.find((c) => catchAllFor(c.toleration, 'NoExecute'));
  if (noExecute && typeof noExecute.toleration.tolerationSeconds !== 'number' && resource.kind !== 'Pod') {
    const byKey = { tolerations: podTolerations(template.spec).filter((t) => !catchAlls.some((c) => c.toleration === t)) };
    const stays = NODE_LOSS_TAINTS.map((taint) => ({ taint, seconds: nodeLossTolerationSeconds(template.spec, taint), byKeyAlone: nodeLossTolerationSeconds(byKey, taint) }));
    const forever = stays.filter((s) => s.seconds === null && s.byKeyAlone !== null).map((s) => s.taint);
    if (forever.length) {
      const both = forever.length === NODE_LOSS_TAINTS.length;
      const node = both ? 'a dead node' : `a node that ${WHEN_TAINTED[forever[0]]}`;
      parts.push({
        inShort: `its pods are never moved off ${node}`,
        besideAnother: `never leaves ${node}`,
        text: `it also tolerates ${both ? 'node.kubernetes.io/unreachable and not-ready' : forever[0]} for ever, so when its node ${both ? 'dies' : WHEN_TAINTED[forever[0]]} its pods are never evicted and never replaced`,
        causes: [noExecute],
      });
    }
    const keyedFirst = stays.flatMap(({ taint, seconds }) => (typeof seconds === 'number' ? [{ taint, seconds }] : []));
    if (keyedFirst.length) notes.push(evictedByKeyedTolerations(keyedFirst));
  }
  return { parts, notes };
}

/** What the node controller's taint says of the node: "stops reporting". */
const WHEN_TAINTED: Record<NodeLossTaint, string> = {
  'node.kubernetes.io/unreachable': 'stops reporting',
  'node.kubernetes.io/not-ready': 'reports NotReady',
};

function secondsAfter(seconds: number): string {
  return seconds ? `${seconds} s after` : 'as soon as';
}

/** Node-loss taints a toleration by key meets before the catch-all, so its tolerationSeconds holds. */
function evictedByKeyedTolerations(stays: { taint: NodeLossTaint; seconds: number }[]): string {
  if (stays.length === 1) {
    const [{ taint, seconds }] = stays;
    return `its toleration of ${taint} by key comes first, so when its node ${WHEN_TAINTED[taint]} its pods are still evicted ${secondsAfter(seconds)} the node controller taints it`;
  }
  const [unreachable, notReady] = stays;
  const when =
    unreachable.seconds === notReady.seconds
      ? `when its node dies its pods are still evicted ${secondsAfter(unreachable.seconds)} the node controller taints it`
      : `its pods are still evicted ${secondsAfter(unreachable.seconds)} the node controller taints their node unreachable and ${secondsAfter(notReady.seconds)} it taints it not-ready`;
  return `its tolerations of node.kubernetes.io/unreachable and not-ready by key come first, so ${when}`;
}
