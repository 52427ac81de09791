/* eslint-disable @typescript-eslint/no-explicit-any */
import { setOwnField } from '../own-field';

/**
 * Drops what no rule, topology question or simulation reads, so that 150,000 pods fit in an editor's
 * memory: managed fields, last-applied copies, container images lists of nodes, environment variables,
 * volume sources' contents, most of a pod's status.
 */
export function slimObject(object: any): any {
  if (!object || typeof object !== 'object') return object;
  const metadata = object.metadata;
  if (metadata && typeof metadata === 'object') {
    for (const key of DROPPED_METADATA) delete metadata[key];
    if (metadata.annotations && typeof metadata.annotations === 'object') metadata.annotations = readableAnnotations(metadata.annotations);
    if (Array.isArray(metadata.ownerReferences)) {
      metadata.ownerReferences = metadata.ownerReferences.map((o: any) => ({ apiVersion: o?.apiVersion, kind: o?.kind, name: o?.name, controller: o?.controller }));
    }
  }
  if (object.kind === 'Pod') slimPod(object);
  else if (object.kind === 'Node') slimNode(object);
  else if (object.kind === 'ScaledObject' && typeof object.apiVersion === 'string' && object.apiVersion.startsWith('keda.sh/')) slimScaledObject(object);
  else if (object.spec?.template?.spec) slimPodTemplate(object.spec.template);
  else if (object.spec?.jobTemplate?.spec?.template?.spec) slimPodTemplate(object.spec.jobTemplate.spec.template);
  return compact(object);
}

function slimPodTemplate(template: any): void {
  const annotations = template.metadata?.annotations;
  if (annotations && typeof annotations === 'object') template.metadata.annotations = readableAnnotations(annotations);
  slimPodSpec(template.spec);
}

/**
 * Kubernetes' own annotations, KEDA's pauses and the advisor's are what the engine reads. Others are a team's or a
 * tool's, and tools keep credentials there (an injected token, a copy of the applied manifest), so they
 * never leave the cluster; neither does the last-applied copy, which repeats every env value.
 */
const READ_ANNOTATION = /^(kube-resilience\/|([a-z0-9-]+\.)*(kubernetes\.io|k8s\.io)\/|autoscaling\.keda\.sh\/paused(-replicas)?$)/;
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

function readableAnnotations(annotations: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(annotations)) if (key !== LAST_APPLIED && READ_ANNOTATION.test(key)) kept[key] = value;
  return kept;
}

const DROPPED_METADATA = ['managedFields', 'selfLink', 'uid', 'resourceVersion', 'generateName', 'generation'];
const DROPPED_POD_SPEC = ['securityContext', 'schedulerName', 'dnsPolicy', 'serviceAccount', 'enableServiceLinks', 'preemptionPolicy'];

/**
 * Copies the object afresh: JSON.parse gives every copy of "Running", a namespace or an image name its
 * own string, and the deletes above leave objects in V8's slow dictionary mode; 150,000 pods repeat
 * the same few thousand strings, so fresh objects sharing one copy of each short string take much less
 * heap.
 */
const interned = new Map<string, string>();
const MAX_INTERNED_LENGTH = 120;

function intern(value: string): string {
  if (value.length > MAX_INTERNED_LENGTH) return value;
  const hit = interned.get(value);
  if (hit !== undefined) return hit;
  if (interned.size >= 500_000) interned.clear();
  interned.set(value, value);
  return value;
}

/**
 * Also, wherever they sit (a CronJob's job template, a StatefulSet's volume claim templates, a kind this
 * file does not know), annotations other than those read are left out, and so are containers'
 * environment variables: what must never reach a snapshot does not depend on the shapes above.
 */
function compact(value: any, key?: string, depth = 0): any {
  if (typeof value === 'string') return intern(value);
  // Deeper than any Kubernetes object nests, and deep enough to overflow the stack (8,000 levels did): left out.
  if (depth > MAX_DEPTH) return undefined;
  if (Array.isArray(value)) return value.map((item) => compact(item, key, depth + 1));
  if (!value || typeof value !== 'object') return value;
  const container = key !== undefined && CONTAINER_LISTS.has(key);
  const copy: any = {};
  for (const childKey of Object.keys(value)) {
    let child = value[childKey];
    if (child === undefined || (container && (childKey === 'env' || childKey === 'envFrom'))) continue;
    if (childKey === 'annotations' && key === 'metadata' && child && typeof child === 'object') child = readableAnnotations(child);
    const compacted = compact(child, childKey, depth + 1);
    if (compacted === undefined) continue;
    setOwnField(copy, intern(childKey), compacted);
  }
  return copy;
}

const MAX_DEPTH = 100;

const CONTAINER_LISTS = new Set(['containers', 'initContainers', 'ephemeralContainers']);

const KEPT_POD_CONDITIONS = new Set(['Ready', 'PodScheduled']);
const KEPT_VOLUME_SOURCES = ['emptyDir', 'persistentVolumeClaim', 'hostPath', 'ephemeral', 'local'];

function slimContainer(container: any): void {
  if (!container || typeof container !== 'object') return;
  delete container.env;
  delete container.envFrom;
  delete container.volumeMounts;
  delete container.terminationMessagePath;
  delete container.terminationMessagePolicy;
  delete container.imagePullPolicy;
  delete container.command;
  delete container.args;
}

function slimPodSpec(spec: any): void {
  if (!spec || typeof spec !== 'object') return;
  for (const key of DROPPED_POD_SPEC) delete spec[key];
  // Environment values are where passwords live: none of them may reach a snapshot, from any kind of container.
  for (const list of [spec.containers, spec.initContainers, spec.ephemeralContainers]) if (Array.isArray(list)) list.forEach(slimContainer);
  if (Array.isArray(spec.volumes)) {
    spec.volumes = spec.volumes.map((volume: any) => {
      const kept: any = { name: volume?.name };
      for (const source of KEPT_VOLUME_SOURCES) if (volume?.[source] !== undefined) kept[source] = volume[source];
      return kept;
    });
  }
}

function slimPod(pod: any): void {
  slimPodSpec(pod.spec);
  const status = pod.status;
  if (!status || typeof status !== 'object') return;
  pod.status = {
    phase: status.phase,
    reason: status.reason,
    hostIP: status.hostIP,
    podIP: status.podIP,
    startTime: status.startTime,
    qosClass: status.qosClass,
    conditions: Array.isArray(status.conditions) ? status.conditions.filter((c: any) => KEPT_POD_CONDITIONS.has(c?.type)).map((c: any) => ({ type: c.type, status: c.status, reason: c.reason })) : undefined,
    containerStatuses: Array.isArray(status.containerStatuses)
      ? status.containerStatuses.map((c: any) => ({ name: c?.name, ready: c?.ready, restartCount: c?.restartCount, started: c?.started }))
      : undefined,
  };
}

/** What KEDA scales and between which counts; its triggers (hosts, queues, credentials' names) and status are left out. */
function slimScaledObject(scaledObject: any): void {
  const spec = scaledObject.spec;
  delete scaledObject.status;
  if (!spec || typeof spec !== 'object') return;
  scaledObject.spec = { scaleTargetRef: spec.scaleTargetRef, minReplicaCount: spec.minReplicaCount, maxReplicaCount: spec.maxReplicaCount, idleReplicaCount: spec.idleReplicaCount };
}

function slimNode(node: any): void {
  const status = node.status;
  if (!status || typeof status !== 'object') return;
  delete status.images;
  delete status.volumesInUse;
  delete status.volumesAttached;
  delete status.daemonEndpoints;
  if (Array.isArray(status.conditions)) {
    status.conditions = status.conditions.map((c: any) => ({ type: c?.type, status: c?.status, reason: c?.reason, lastHeartbeatTime: c?.lastHeartbeatTime }));
  }
}
