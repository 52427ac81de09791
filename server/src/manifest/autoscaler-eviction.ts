import type { Resource } from './parse';
import { podTemplateOf } from './workload';

const SAFE_TO_EVICT = 'cluster-autoscaler.kubernetes.io/safe-to-evict';
const SAFE_TO_EVICT_LOCAL_VOLUMES = 'cluster-autoscaler.kubernetes.io/safe-to-evict-local-volumes';

/** What the cluster autoscaler reads on a workload's pods before it moves them to remove their node. */
export interface AutoscalerEviction {
  /** Their `safe-to-evict` annotation, when it says "true" or "false". */
  safeToEvict?: boolean;
  /**
   * A volume holds them to their node: a hostPath, or an emptyDir on the node's disk (a memory-backed one does not
   * count), unless the pods name it in `safe-to-evict-local-volumes`.
   */
  localStorage: boolean;
}

/** What the autoscaler reads on the pods (their template's annotations: it reads the pods', not the workload's). */
export function autoscalerEviction(resource: Resource): AutoscalerEviction {
  const template = podTemplateOf(resource);
  const annotations = template?.annotations ?? {};
  const safe = annotations[SAFE_TO_EVICT];
  const named = new Set(String(annotations[SAFE_TO_EVICT_LOCAL_VOLUMES] ?? '').split(',').map((n) => n.trim()).filter(Boolean));
  const volumes: unknown[] = Array.isArray(template?.spec?.volumes) ? template.spec.volumes : [];
  const localStorage = volumes.some((v: any) => v && typeof v === 'object' && !named.has(v.name) && (v.hostPath || (v.emptyDir && v.emptyDir.medium !== 'Memory')));
  return { ...(safe === 'true' || safe === 'false' ? { safeToEvict: safe === 'true' } : {}), localStorage };
}
