import type { Fix } from '../fixes/edit';
import { appendToSequence, setField } from '../fixes/yaml-edit';
import { ownedByAnother } from '../inventory/inventory';
import type { Resource } from '../manifest/parse';
import {
  BLOCKING_EFFECTS,
  describeTaint,
  isConditionTaint,
  matchesNodeSelector,
  matchesRequiredNodeAffinity,
  nodeLabels,
  nodeTaints,
  podRequests,
  podTolerations,
  toleratesTaint,
  type Taint,
  type Toleration,
} from '../manifest/scheduling';
import { describeResource, isPodReady, podTemplateOf, type PodTemplate } from '../manifest/workload';
import { conventionalGpuTaintKey, describeGpus, gpuRequests, nodesWithGpu } from './gpu-resources';
import type { Rule, RuleContext } from './types';
import { admissionTolerations, knownNodes } from './unschedulable';
import { exampleDeployment } from './example-workload';

/** Labels that name a node pool or the GPU itself, best first: what a nodeSelector for the GPU pool should use. */
const POOL_LABELS = [
  'nvidia.com/gpu.present',
  'cloud.google.com/gke-accelerator',
  'cloud.google.com/gke-nodepool',
  'eks.amazonaws.com/nodegroup',
  'karpenter.sh/nodepool',
  'kubernetes.azure.com/agentpool',
  'agentpool',
  'node.kubernetes.io/instance-type',
];

/** A label every GPU node has, with the same value, and no other node has with that value. */
export function gpuPoolLabel(gpuNodes: readonly Resource[], allNodes: readonly Resource[]): [string, string] | undefined {
  const others = allNodes.filter((n) => !gpuNodes.includes(n));
  for (const key of POOL_LABELS) {
    const values = new Set(gpuNodes.map((n) => nodeLabels(n)[key]));
    if (values.size !== 1) continue;
    const [value] = values;
    if (value === undefined) continue;
    if (others.some((n) => nodeLabels(n)[key] === value)) continue;
    return [key, value];
  }
  return undefined;
}

function tolerationFor(taint: Taint, assumed: boolean): Toleration {
  if (assumed || taint.value === undefined) return { key: taint.key, operator: 'Exists', effect: taint.effect };
  return { key: taint.key, operator: 'Equal', value: taint.value, effect: taint.effect };
}

function uniqueTaints(taints: Taint[]): Taint[] {
  const seen = new Map<string, Taint>();
  for (const t of taints) seen.set(describeTaint(t), t);
  return [...seen.values()];
}

interface Verdict {
  taints: Taint[];
  assumed: boolean;
  nodeSelector?: [string, string];
}

/** The GPU taints the pod does not tolerate, from the live GPU nodes when there are any, else the convention. */
function judge(template: PodTemplate, gpuResource: string, context: RuleContext): Verdict | undefined {
  const tolerations = [...podTolerations(template.spec), ...admissionTolerations(podRequests(template.spec), context.cluster)];
  const nodes = knownNodes(context.cluster);
  const gpuNodes = nodes ? nodesWithGpu(nodes, gpuResource) : [];
  if (nodes && gpuNodes.length) {
    const targeted = gpuNodes.filter((n) => matchesNodeSelector(template.spec.nodeSelector, nodeLabels(n)) && matchesRequiredNodeAffinity(template.spec, n));
    const candidates = targeted.length ? targeted : gpuNodes;
    const blockingOn = candidates.map((n) => nodeTaints(n).filter((t) => BLOCKING_EFFECTS.includes(t.effect) && !isConditionTaint(t) && !tolerations.some((x) => toleratesTaint(x, t))));
    if (blockingOn.some((taints) => taints.length === 0)) return undefined;
    const label = gpuPoolLabel(gpuNodes, nodes);
    const selected = label && template.spec.nodeSelector && typeof template.spec.nodeSelector === 'object' && label[0] in template.spec.nodeSelector;
    return { taints: uniqueTaints(blockingOn.flat()), assumed: false, nodeSelector: label && !selected ? label : undefined };
  }
  const key = conventionalGpuTaintKey(gpuResource);
  const tolerated = tolerations.some((t) => (!t.effect || t.effect === 'NoSchedule') && (t.key ? t.key === key : t.operator === 'Exists'));
  if (tolerated) return undefined;
  return { taints: [{ key, effect: 'NoSchedule' }], assumed: true };
}

export const gpuUntolerated: Rule = {
  meta: {
    id: 'gpu-untolerated',
    severity: 'warning',
    scenario: 'special-hardware',
    title: 'GPU pods without a toleration for the GPU nodes\' taints',
    description:
      'GPU node pools are usually tainted (`nvidia.com/gpu`) so that ordinary pods stay off the expensive nodes. A pod that requests a GPU (`nvidia.com/gpu`, `amd.com/gpu`, `gpu.intel.com/*`) but does not tolerate that taint stays Pending: no node both has a GPU and accepts it. With a cluster the taints are read from its GPU nodes; without one the rule assumes GPU nodes carry a taint named after the GPU requested (`nvidia.com/gpu`, `amd.com/gpu`) and reports at info level (GKE adds the `nvidia.com/gpu` taint and the matching toleration itself; other clusters do not).',
    fix: 'Adds a toleration for each GPU taint and, when the cluster shows a label all GPU nodes share (a node pool label or `nvidia.com/gpu.present`), a matching `nodeSelector`.',
    example: exampleDeployment(
      `        - name: app
          image: example/orders-ranker:1.4
          resources:
            limits:
              nvidia.com/gpu: 1
`,
    ),
  },
  check(context) {
    for (const resource of context.resources) {
      const template = podTemplateOf(resource);
      if (!template || ownedByAnother(resource) || template.spec.nodeName) continue;
      const requests = gpuRequests(resource);
      if (!requests.length) continue;
      const verdict = judge(template, requests[0].resource, context);
      if (!verdict) continue;
      // Pods of it already run: the cluster admits them in a way this rule cannot see (a webhook adding tolerations).
      if ((resource.kind === 'Pod' ? [resource] : context.inventory.podsOf(resource)).some(isPodReady)) continue;
      const taints = verdict.taints.map(describeTaint).join(', ');
      const basis = verdict.assumed
        ? `no toleration for ${verdict.taints[0].key} (${knownNodes(context.cluster) ? `cluster ${context.cluster!.name} has no node offering ${requests[0].resource} now, so ` : ''}assuming GPU nodes carry the ${verdict.taints[0].key} taint${verdict.taints[0].key === 'nvidia.com/gpu' ? ': GKE adds that taint and the matching toleration itself, other clusters do not' : ', named after the GPU they offer'})`
        : `no toleration for the GPU nodes' taint ${taints} in cluster ${context.cluster!.name}`;
      const tolerationsPath = [...template.path, 'spec', 'tolerations'];
      const edits = appendToSequence(resource, tolerationsPath, ...verdict.taints.map((t) => tolerationFor(t, verdict.assumed)));
      const selectorEdits = verdict.nodeSelector ? setField(resource, [...template.path, 'spec', 'nodeSelector', verdict.nodeSelector[0]], verdict.nodeSelector[1]) : [];
      const fix: Fix | undefined =
        edits && selectorEdits
          ? {
              title: `Tolerate ${taints}${verdict.nodeSelector ? ` and select ${verdict.nodeSelector.join('=')}` : ''}`,
              preferred: true,
              edits: [...edits, ...selectorEdits],
            }
          : undefined;
      context.report({
        resource,
        path: podTolerations(template.spec).length ? tolerationsPath : requests[0].path,
        severity: verdict.assumed ? 'info' : undefined,
        message: `${describeResource(resource)} tolerates no GPU taint: ${verdict.assumed ? 'where GPU nodes are tainted, ' : ''}its pods stay Pending. It requests ${describeGpus(requests)} but has ${basis}: no node both has the GPU and accepts its pods.`,
        fixes: [fix],
      });
    }
  },
};
