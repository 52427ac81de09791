import type { EffectiveReplicas } from '../inventory/inventory';
import { autoscalerBounds } from '../manifest/autoscaler';
import type { Resource } from '../manifest/parse';
import type { Path } from '../manifest/path';
import { PAUSED_REPLICAS } from '../manifest/scaled-object';
import { describeResource } from '../manifest/workload';

/**
 * Where a workload's count is set when its own replicas field does not set it, as a related location: the autoscaler's
 * floor, or the paused-replicas a ScaledObject holds it at. `of` names the workload, for a finding about several.
 */
export function countSetBy(replicas: EffectiveReplicas, of?: Resource): { resource: Resource; path: Path; message: string }[] {
  const whose = of ? ` of ${describeResource(of)}` : '';
  if (replicas.hpa) return [{ resource: replicas.hpa, path: ['spec', autoscalerBounds(replicas.hpa).minField], message: `sets the replica floor${whose}` }];
  if (replicas.heldBy) return [{ resource: replicas.heldBy, path: ['metadata', 'annotations', PAUSED_REPLICAS], message: `holds the replica count${whose}` }];
  return [];
}
