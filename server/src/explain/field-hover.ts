import type { Inventory } from '../inventory/inventory';
import { declaredAnnotationSpec } from '../manifest/declared';
import type { Resource } from '../manifest/parse';
import type { Path } from '../manifest/path';
import { describeEvictionsAllowed, describePdbBudget, evictionsAllowedBy, pdbBudget, rejectedPdb } from '../manifest/pdb';
import { unscaledBy } from '../rules/pdb-counting';
import { describeHandler, failureBudget, probeHandler, probeTimings, PROBE_FIELDS, refusedTiming, startBudget, type ProbeField } from '../manifest/probe';
import { containersOf, isScalable, podTemplatePath, runsThroughout, valueAt } from '../manifest/workload';
import { HOVER_TIMING as T } from './timings';
import { plural } from '../words';
import { markdownText } from './markdown-text';
import { shownValue } from '../manifest/integer-field';

const PROBE_MEANING: Record<ProbeField, string> = {
  livenessProbe: 'Liveness: when it fails `failureThreshold` times in a row, the kubelet kills and restarts the container. It should check only that the process is not stuck; if it checks dependencies, a dependency outage restarts every replica at once. It keeps working while the control plane is down.',
  readinessProbe: 'Readiness: while it fails, the pod is taken out of its Services’ endpoints (no restart). It is what keeps traffic off pods that are starting, overloaded or cut off from dependencies; while the control plane is down, readiness changes no longer reach the endpoints.',
  startupProbe: 'Startup: holds liveness and readiness back until it succeeds once; a slow start then does not crash-loop, and liveness can stay strict afterwards.',
};

function probeFieldOf(path: Path): { field: ProbeField; index: number } | undefined {
  for (let i = path.length - 1; i >= 0; i--) if ((PROBE_FIELDS as readonly unknown[]).includes(path[i])) return { field: path[i] as ProbeField, index: i };
  return undefined;
}

function probeText(resource: Resource, path: Path): string | undefined {
  const found = probeFieldOf(path);
  if (!found) return undefined;
  const containerPath = path.slice(0, found.index);
  const container = valueAt(resource.object, containerPath);
  const probe = container?.[found.field];
  // `livenessProbe:` with nothing under it is no probe: the kubelet runs none.
  if (!probe || typeof probe !== 'object') return `${PROBE_MEANING[found.field]}\n\nThis probe is empty: the kubelet runs none.`;
  const t = probeTimings(probe, found.field);
  const handler = probeHandler(probe, container);
  const handled = handler ? markdownText(describeHandler(handler)) : 'no handler';
  // An init container that is no native sidecar runs to its end before the app starts: the API server refuses any probe on it.
  const ref = containersOf(resource, true).find((c) => c.container === container);
  if (ref && !runsThroughout(ref)) return `${PROBE_MEANING[found.field]}\n\nThis probe: ${handled}, on an init container that is no native sidecar (no \`restartPolicy: Always\`): it runs to its end before the app starts and takes no probe, so the API server rejects the pod, and no timing of this probe runs.`;
  const refused = refusedTiming(probe, found.field);
  if (!t || refused) return `${PROBE_MEANING[found.field]}\n\nThis probe: ${handled}; its ${refused?.field} ${markdownText(shownValue(refused?.value))} ${refused?.why}, so the API server rejects the pod, and no timing of this probe runs.`;
  const key = path[path.length - 1];
  const budget = failureBudget(t);
  const timing = `${handled}, every ${t.periodSeconds} s, ${t.timeoutSeconds} s timeout, ${t.failureThreshold} failures = ${budget} s to act${t.initialDelaySeconds ? ` after an initial ${t.initialDelaySeconds} s` : ''}.`;
  const killedBy = found.field === 'livenessProbe' ? ' unless a startup probe holds it back' : ': the startup probe gives up then, and the container restarts';
  const start = found.field === 'readinessProbe' ? '' : ` A start longer than ${startBudget(t)} s (initialDelaySeconds + failureThreshold × periodSeconds) is killed${killedBy}.`;
  const specific: Record<string, string> = {
    failureThreshold: `Consecutive failures before the probe acts: ${t.failureThreshold} × ${t.periodSeconds} s = ${budget} s.`,
    periodSeconds: `How often the probe runs: every ${t.periodSeconds} s; with failureThreshold ${t.failureThreshold} it acts after ${budget} s.`,
    initialDelaySeconds: `Seconds after the container starts before the first probe (${t.initialDelaySeconds} s). A startup probe is the better way to wait for a slow start.`,
    timeoutSeconds: `Seconds one probe may take (${t.timeoutSeconds} s); a slow answer under load counts as a failure.`,
    successThreshold: `Consecutive successes before a failed probe counts as passing again (${t.successThreshold}; must be 1 for liveness and startup).`,
  };
  return `${typeof key === 'string' && Object.hasOwn(specific, key) ? `${specific[key]}\n\n` : ''}${PROBE_MEANING[found.field]}\n\nThis probe: ${timing}${start}`;
}

/** What the PDB does to the pods it selects, with their numbers: empty when it selects none. */
function pdbNow(pdb: Resource, inventory: Inventory): string {
  if (rejectedPdb(pdb)) return ' Here: the API server rejects this PodDisruptionBudget, so it is never created and limits no eviction.';
  const expected = inventory.expectedPods(pdb);
  const { workloads, count, selected } = expected;
  if (!workloads.length) return '';
  const names = workloads.map(({ workload }) => markdownText(workload.name ?? '')).join(', ');
  if (count === undefined) return ` Here it selects ${names}, which ${withoutScale(pdb)}`;
  const budget = pdbBudget(pdb);
  const unscaled = budget && unscaledBy(budget, expected);
  if (budget && unscaled) return ` Here: the disruption controller counts the bare pod ${markdownText(unscaled.name ?? '')} for none against ${budget.field === 'maxUnavailable' ? 'maxUnavailable' : 'a percentage'} → no eviction allowed.`;
  const pods = selected === count ? plural(count, 'pod') : `${selected} of the ${count} pods`;
  return ` Here: ${describePdbBudget(pdb, count)} over ${pods} of ${names} → ${describeEvictionsAllowed(evictionsAllowedBy(pdb, count, selected))} at a time.`;
}

function pdbText(resource: Resource, key: string, inventory: Inventory): string | undefined {
  if (resource.kind !== 'PodDisruptionBudget') return undefined;
  const now = pdbNow(resource, inventory);
  const meaning =
    key === 'minAvailable'
      ? 'Pods that must stay healthy during voluntary disruptions (drains, autoscaler scale-down); percentages round up. When it equals the replica count, no pod can ever be evicted and drains hang.'
      : 'Pods that may be down at once during voluntary disruptions (drains, autoscaler scale-down); percentages round up. 0 blocks every drain. PDBs do not protect against node crashes or node-pressure evictions.';
  return meaning + now;
}

/**
 * What a budget does over pods without a scale (a DaemonSet's, a Job's): the disruption controller counts the pods
 * themselves only for a whole-number minAvailable; a percentage or a maxUnavailable needs a scale, and without one
 * the budget allows no eviction at all.
 */
function withoutScale(pdb: Resource): string {
  const budget = pdbBudget(pdb);
  if (budget?.field === 'minAvailable' && budget.value.kind === 'int') return 'has no scale: the disruption controller counts the pods that exist, not a number written here.';
  return `has no scale: the disruption controller cannot work out ${budget ? `a ${budget.field === 'maxUnavailable' ? 'maxUnavailable' : 'percentage'}` : 'this budget'} for them, and allows no eviction.`;
}

/** Whether `path` lies below `prefix`. */
function under(path: Path, prefix: Path | undefined): boolean {
  return !!prefix && prefix.every((step, i) => path[i] === step) && path.length > prefix.length;
}

/** The pod spec of a workload or pod, where the pod's fields are. */
function podSpecPath(resource: Resource): Path | undefined {
  const template = podTemplatePath(resource);
  return template && [...template, 'spec'];
}

const inPodSpec = (resource: Resource, path: Path) => under(path, podSpecPath(resource));
const inContainer = (resource: Resource, path: Path) => inPodSpec(resource, path) && ['containers', 'initContainers', 'ephemeralContainers'].includes(String(path[podSpecPath(resource)!.length]));
const ofKind = (...kinds: string[]) => (resource: Resource, path: Path) => kinds.includes(resource.kind) && path.length === 2 && path[0] === 'spec';
/** A field of the pod spec itself (not of something in it). */
const podSpecField = (resource: Resource, path: Path) => {
  const spec = podSpecPath(resource);
  return under(path, spec) && path.length === spec!.length + 1;
};
/** Within a container's resources or the pod's own (spec.resources, which count for all its containers together). */
const inResources = (resource: Resource, path: Path) => {
  const spec = podSpecPath(resource);
  return (inContainer(resource, path) && path.includes('resources')) || (!!spec && under(path, [...spec, 'resources']));
};
const rollingUpdateField = (_resource: Resource, path: Path) => path[0] === 'spec' && (path[1] === 'strategy' || path[1] === 'updateStrategy') && path.includes('rollingUpdate');

/**
 * What a field a rule looks at means under failure, and where it is that field: a key of the same name elsewhere
 * (`resources` in an RBAC rule, `replicas` in a custom resource) means something else.
 */
const FIELDS: Record<string, { place: (resource: Resource, path: Path) => boolean; text: (value: any) => string }> = {
  replicas: {
    place: (resource, path) => isScalable(resource) && path.length === 2 && path[0] === 'spec',
    text: (v) =>
      `Pods the controller keeps running${typeof v === 'number' ? ` (${v})` : ''}. With 1, every drain, node crash or eviction is an outage; while the control plane is down, this is all the capacity there is — a pod that dies is not replaced. An HPA targeting the workload owns this number instead.`,
  },
  minReplicas: {
    place: ofKind('HorizontalPodAutoscaler'),
    text: (v) => `The HPA's floor${typeof v === 'number' ? ` (${v})` : ''}: while the control plane is down the HPA cannot scale, so this is all the capacity there is. Below 2, one node failure is an outage.`,
  },
  maxReplicas: {
    place: ofKind('HorizontalPodAutoscaler'),
    text: (v) => `The HPA's ceiling${typeof v === 'number' ? ` (${v})` : ''}; at or below minReplicas there is no headroom for a surge.`,
  },
  terminationGracePeriodSeconds: {
    place: podSpecField,
    text: (v) =>
      `Seconds a pod gets to stop on a drain, scale-down or rollout${typeof v === 'number' && Number.isFinite(v) ? ` (${v} s)` : ''}, counted from the start of its preStop hook: the hook, then SIGTERM, then SIGKILL when the time is up (2 s more, once, if the hook still runs); default ${T.terminationGrace} s. The Cluster Autoscaler caps it at ${T.scaleDownMaxGrace} s; node-pressure evictions ignore it.`,
  },
  tolerations: {
    place: podSpecField,
    text: () =>
      `Taints this pod accepts. Unless it tolerates \`node.kubernetes.io/unreachable\` and \`not-ready\` itself, it gets them with tolerationSeconds ${T.unreachableToleration}: after a node crash its pods are evicted ~${T.nodeMonitorGraceOld}–${T.nodeMonitorGrace} s (node marked unhealthy) + ${T.unreachableToleration} s later, and only then replaced. A lower tolerationSeconds moves them sooner.`,
  },
  tolerationSeconds: {
    place: (resource, path) => inPodSpec(resource, path) && path.includes('tolerations'),
    text: (v) => `How long the pod stays bound to a node with this NoExecute taint${typeof v === 'number' ? ` (${v} s)` : ''} before eviction; without it, forever.`,
  },
  strategy: {
    place: ofKind('Deployment'),
    text: () => 'How a rollout replaces pods: RollingUpdate (default: 25% maxUnavailable, 25% maxSurge) keeps serving while maxUnavailable stays below the replica count; Recreate kills every pod first, an outage on each rollout.',
  },
  maxUnavailable: {
    place: rollingUpdateField,
    text: () => 'Pods that may be missing during a rolling update (a Deployment\'s default 25%, rounded down; a DaemonSet\'s and a StatefulSet\'s 1); 0 with maxSurge ≥ 1 keeps full capacity, and at the pod count or above (100%) every pod goes at once, an outage on each rollout.',
  },
  maxSurge: {
    place: rollingUpdateField,
    text: () => 'Extra pods a rolling update may start above the desired count (a Deployment\'s default 25%, rounded up; a DaemonSet\'s 0, one pod a node); they need spare room on the nodes.',
  },
  topologySpreadConstraints: {
    place: podSpecField,
    text: () => 'Spreads replicas over nodes or zones, so one node crash or drain takes only a share of them, when its maxSkew is below the replica count (at or above it, every replica may share one node). Without it (or pod anti-affinity), the scheduler may put every replica on one node.',
  },
  podAntiAffinity: {
    place: (resource, path) => inPodSpec(resource, path) && path.includes('affinity'),
    text: () => 'Keeps replicas apart (on `kubernetes.io/hostname`: on different nodes), so one node failure does not take them all.',
  },
  resources: {
    place: (resource, path) => inContainer(resource, path) || podSpecField(resource, path),
    text: () =>
      "Requests decide where the pod fits and what it is guaranteed; limits cap it. The pod's own (spec.resources, Kubernetes 1.34+) count for all its containers together and take precedence over theirs. Without a memory request or limit, on the pod or the container, a surge ends in node-pressure evictions (which ignore PDBs and grace periods) or OOM kills of neighbours.",
  },
  memory: {
    place: inResources,
    text: () => "Memory: above a limit (the container's, or the pod's for all its containers together) the kernel OOM-kills and the container restarts in place; without a request, the pod is among the first the kubelet evicts under memory pressure.",
  },
  nodeName: {
    place: podSpecField,
    text: () => 'Binds the pod to one node by name, bypassing the scheduler: if that node dies, the pod cannot move.',
  },
  nodeSelector: {
    place: podSpecField,
    text: () => 'Only nodes with these labels can run the pod: if they are all gone or full, replacements stay Pending.',
  },
  preStop: {
    place: (resource, path) => inContainer(resource, path) && path.includes('lifecycle'),
    text: () => 'Runs before SIGTERM on every graceful stop: a short sleep here lets endpoints and load balancers stop sending requests before the app stops accepting them.',
  },
  unhealthyPodEvictionPolicy: {
    place: ofKind('PodDisruptionBudget'),
    text: () => 'AlwaysAllow lets drains evict pods that are not ready anyway (crash-looping); the default, IfHealthyBudget, lets them count against the budget and block drains.',
  },
};

function annotationText(path: Path): string | undefined {
  const key = path[path.length - 1];
  if (path[path.length - 2] !== 'annotations' || typeof key !== 'string') return undefined;
  const spec = declaredAnnotationSpec(key);
  if (spec) return `${spec.description} Accepts ${spec.accepts}.`;
  if (key === 'cluster-autoscaler.kubernetes.io/safe-to-evict') return 'When "false", the Cluster Autoscaler never removes the node this pod runs on: sessions survive scale-down, and the node keeps costing.';
  return undefined;
}

/** What a field a rule looks at means under failure, or undefined for fields no rule reads. */
export function fieldMeaning(resource: Resource, path: Path, inventory: Inventory): string | undefined {
  const key = path[path.length - 1];
  if (typeof key !== 'string') return undefined;
  const annotation = annotationText(path);
  if (annotation) return annotation;
  const probe = probeText(resource, path);
  if (probe) return probe;
  if (key === 'minAvailable' || (key === 'maxUnavailable' && resource.kind === 'PodDisruptionBudget')) return pdbText(resource, key, inventory);
  const field = Object.hasOwn(FIELDS, key) ? FIELDS[key] : undefined;
  return field?.place(resource, path) ? field.text(valueAt(resource.object, path)) : undefined;
}
