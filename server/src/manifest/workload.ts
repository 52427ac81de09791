import type { Resource } from './parse';
import type { Path } from './path';
import type { LabelSelector, Labels } from './selector';
import { factOf } from './facts';
import { writtenNotInteger } from './integer-field';

export const WORKLOAD_KINDS = ['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'ReplicationController', 'Job', 'CronJob', 'Pod'] as const;

export function isWorkload(resource: Resource): boolean {
  return (WORKLOAD_KINDS as readonly string[]).includes(resource.kind) && resource.apiVersion !== 'kind.x-k8s.io/v1alpha4';
}

/**
 * Helm hooks and test pods (`helm.sh/hook`) run once around an install, an upgrade or `helm test`,
 * then go: nothing routes requests to them, and they need neither replicas nor a disruption budget.
 */
export function isHelmHook(resource: Resource): boolean {
  const hook = resource.object?.metadata?.annotations?.['helm.sh/hook'];
  return typeof hook === 'string' && hook.trim() !== '';
}

/** A workload whose pods stay up: what serves traffic, needs replicas, and what PDBs and Services select. */
export function isLongRunning(resource: Resource): boolean {
  return isWorkload(resource) && !isHelmHook(resource);
}

/** The workload kinds with a scale subresource: what an HPA can scale (a DaemonSet, a Job or a Pod it cannot). */
export const SCALABLE_KINDS: readonly string[] = ['Deployment', 'StatefulSet', 'ReplicaSet', 'ReplicationController'];

/** Workloads whose replica count a person sets (and an HPA may own). */
export function isScalable(resource: Resource): boolean {
  return SCALABLE_KINDS.includes(resource.kind) && !isHelmHook(resource);
}

/** Whether a kind is one of the workloads without a scale (a DaemonSet, a Job, a Pod): nothing can scale it. */
export function workloadKindWithoutScale(kind: string): boolean {
  return (WORKLOAD_KINDS as readonly string[]).includes(kind) && !SCALABLE_KINDS.includes(kind);
}

/**
 * Whether the HPA can scale the workload, as the HPA controller finds its target: by the group of its
 * scaleTargetRef's apiVersion (any version), kind and name, through a scale subresource (a DaemonSet has none),
 * and only if the API server took the HPA (maxReplicas at least 1 and at least minReplicas). A ref without an
 * apiVersion, or with `extensions/v1beta1`, ends in FailedGetScale: "no matches for kind Deployment in group".
 */
export function hpaScales(hpa: Resource, workload: Resource): boolean {
  return refersToScalable(hpa.object?.spec?.scaleTargetRef, workload) && !rejectedHpa(hpa);
}

/** Whether a scaleTargetRef names the workload (by the group of its apiVersion, kind and name) and the workload has a scale. */
export function refersToScalable(ref: unknown, workload: Resource): boolean {
  if (!ref || typeof ref !== 'object') return false;
  const { apiVersion, kind, name } = ref as Record<string, unknown>;
  return kind === workload.kind && name === workload.name && typeof apiVersion === 'string' && groupOf(apiVersion) === groupOf(workload.apiVersion) && isScalable(workload);
}

/** The API group of an apiVersion: `apps` of `apps/v1`, none of `v1`. */
export function groupOf(apiVersion: string): string {
  const slash = apiVersion.lastIndexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/** Whether the API server rejects the HPA, so that it never exists: maxReplicas missing or below 1, or below minReplicas; either written as no integer. */
export function rejectedHpa(hpa: Resource): boolean {
  const { minReplicas, maxReplicas } = hpa.object?.spec ?? {};
  if (!Number.isInteger(maxReplicas) || maxReplicas < 1 || writtenNotInteger(minReplicas)) return true;
  return typeof minReplicas === 'number' && minReplicas > maxReplicas;
}

/**
 * Whether the HPA leaves its target alone: the target is scaled to zero (`replicas: 0`) and the HPA's floor is not
 * zero. The HPA controller then turns its scaling off (ScalingActive False, reason ScalingDisabled) until the
 * target is scaled up by hand; an HPA of `minReplicas: 0` (scale to zero) goes on scaling it.
 */
export function hpaScalingDisabled(target: Resource, hpa: Resource): boolean {
  return isScalable(target) && hpaPausedBy(target.object?.spec?.replicas, hpa);
}

/**
 * Whether a target scaled to `replicas` turns the HPA's scaling off: 0, under a floor that is not 0. Not a KEDA
 * ScaledObject's: KEDA scales a target at zero back up to its minReplicaCount itself.
 */
export function hpaPausedBy(replicas: unknown, hpa: Resource): boolean {
  return replicas === 0 && hpa.kind === 'HorizontalPodAutoscaler' && hpa.object?.spec?.minReplicas !== 0;
}

/** Where the pod template (an object with metadata and spec) sits in a workload. */
export function podTemplatePath(resource: Resource): Path | undefined {
  switch (resource.kind) {
    case 'Pod':
      return [];
    case 'CronJob':
      return ['spec', 'jobTemplate', 'spec', 'template'];
    case 'Deployment':
    case 'StatefulSet':
    case 'DaemonSet':
    case 'ReplicaSet':
    case 'ReplicationController':
    case 'Job':
      return ['spec', 'template'];
    default:
      return undefined;
  }
}

/** Where the templates of what a workload creates sit, outermost first: a CronJob's Job template, then the pod template. */
export function templatePaths(resource: Resource): Path[] {
  const pod = podTemplatePath(resource);
  if (!pod?.length) return [];
  return resource.kind === 'CronJob' ? [['spec', 'jobTemplate'], pod] : [pod];
}

export function valueAt(object: unknown, path: Path): any {
  let value: any = object;
  for (const step of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = value[step];
  }
  return value;
}

export interface PodTemplate {
  path: Path;
  labels: Labels;
  annotations: Record<string, string>;
  spec: any;
}

// Rules and inventory questions ask for it thousands of times per analysis; an object parsed once
// (cached by document text) keeps its answer across edits of other documents.
const templates = new WeakMap<object, PodTemplate | null>();

export function podTemplateOf(resource: Resource): PodTemplate | undefined {
  const { object } = resource;
  const known = object && typeof object === 'object' ? templates.get(object) : undefined;
  if (known !== undefined) return known ?? undefined;
  const template = readPodTemplate(resource);
  if (object && typeof object === 'object') templates.set(object, template ?? null);
  return template;
}

function readPodTemplate(resource: Resource): PodTemplate | undefined {
  const path = podTemplatePath(resource);
  if (!path) return undefined;
  const template = valueAt(resource.object, path);
  if (!template || typeof template !== 'object') return undefined;
  const metadata = template.metadata && typeof template.metadata === 'object' ? template.metadata : {};
  return {
    path,
    labels: stringMap(metadata.labels),
    annotations: annotationMap(metadata.annotations),
    spec: template.spec && typeof template.spec === 'object' ? template.spec : {},
  };
}

export interface ContainerRef {
  container: any;
  /** Path from the resource root to this container. */
  path: Path;
  name: string;
  init: boolean;
}

/** The pod's containers (and init containers when asked), each with its path for ranges and fixes. */
export function containersOf(resource: Resource, withInit = false): ContainerRef[] {
  return factOf(withInit ? allContainers : containers, resource.object, () => readContainers(resource, withInit));
}

const containers = new WeakMap<object, ContainerRef[]>();
const allContainers = new WeakMap<object, ContainerRef[]>();

/**
 * The containers that run for the pod's whole life: its containers and its native sidecars (init containers with
 * `restartPolicy: Always`, which keep running beside them, probed and restarted as they are).
 */
export function runningContainersOf(resource: Resource): ContainerRef[] {
  return factOf(runningContainers, resource.object, () => containersOf(resource, true).filter(runsThroughout));
}

/** Whether the container runs for the pod's whole life: an app container, or a native sidecar. */
export function runsThroughout(ref: ContainerRef): boolean {
  return !ref.init || isNativeSidecar(ref.container);
}

/** Whether an init container is a native sidecar: one that always restarts, and runs beside the app containers once started. */
export function isNativeSidecar(initContainer: any): boolean {
  return initContainer?.restartPolicy === 'Always';
}

const runningContainers = new WeakMap<object, ContainerRef[]>();

function readContainers(resource: Resource, withInit: boolean): ContainerRef[] {
  const template = podTemplateOf(resource);
  if (!template) return [];
  const lists: ['containers' | 'initContainers', boolean][] = withInit ? [['initContainers', true], ['containers', false]] : [['containers', false]];
  return lists.flatMap(([field, init]) => {
    const list = template.spec[field];
    if (!Array.isArray(list)) return [];
    return list.flatMap((container: any, index: number) =>
      container && typeof container === 'object'
        ? [{ container, path: [...template.path, 'spec', field, index], name: String(container.name ?? `#${index}`), init }]
        : [],
    );
  });
}

/** The workload's own pod selector (a ReplicationController's plain map becomes matchLabels). */
export function workloadSelector(resource: Resource): LabelSelector | undefined {
  if (resource.kind === 'Pod') return undefined;
  const selector = resource.object?.spec?.selector;
  if (resource.kind === 'ReplicationController') {
    const map = selector && typeof selector === 'object' ? selector : podTemplateOf(resource)?.labels;
    return map ? { matchLabels: stringMap(map) } : undefined;
  }
  return selector && typeof selector === 'object' ? selector : undefined;
}

export function metadataLabels(resource: Resource): Labels {
  return stringMap(resource.object?.metadata?.labels);
}

export function metadataAnnotations(resource: Resource): Record<string, string> {
  return stringMap(resource.object?.metadata?.annotations);
}

/** Annotations of the workload and of its pod template, the template's winning. */
export function declaredAnnotations(resource: Resource): Record<string, string> {
  return { ...metadataAnnotations(resource), ...(podTemplateOf(resource)?.annotations ?? {}) };
}

/**
 * A pod's annotations as the API server takes them: a value written as no string (`safe-to-evict: false`, a YAML
 * boolean) it refuses with the whole object (annotation-invalid says so), so it sets nothing.
 */
function annotationMap(value: unknown): Record<string, string> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  return stringMap(Object.fromEntries(Object.entries(value).filter(([, v]) => v === null || typeof v === 'string')));
}

/** A map of strings (labels, annotations, a nodeSelector) as the API server reads it: a null value is an empty string (Go's JSON decoder leaves the string's zero value), as selector.ts reads matchLabels. */
export function stringMap(value: unknown): Record<string, string> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = v === null ? '' : String(v);
  return out;
}

export function describeResource(resource: Resource): string {
  const where = resource.namespace && resource.namespace !== 'default' ? `${resource.namespace}/` : '';
  return `${resource.kind} ${where}${resource.name ?? '(unnamed)'}`;
}

/** "Deployment shop/web, container app", or "Deployment shop/web" when the pod has one container or the container is named after it. */
export function describeContainer(resource: Resource, container: string): string {
  // Such a container needs no name of its own: the finding's range points at it anyway.
  const needsName = containersOf(resource, true).length > 1 && container !== resource.name;
  return needsName ? `${describeResource(resource)}, container ${container}` : describeResource(resource);
}

/** A pod read from a cluster that is running and passes its readiness checks (condition Ready=True). */
export function isPodReady(pod: Resource): boolean {
  const status = pod.object?.status;
  if (!status || status.phase !== 'Running' || !Array.isArray(status.conditions)) return false;
  return status.conditions.some((c: any) => c?.type === 'Ready' && c.status === 'True');
}
