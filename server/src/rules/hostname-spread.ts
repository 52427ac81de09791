import type { TextEdit } from '../fixes/edit';
import { appendToSequence, setField } from '../fixes/yaml-edit';
import type { Resource } from '../manifest/parse';
import { selectorMatches } from '../manifest/selector';
import { HOSTNAME_TOPOLOGY } from '../manifest/spread';
import { workloadSelector, type PodTemplate } from '../manifest/workload';

/**
 * The edits that spread a workload's pods across nodes: a topology spread constraint on kubernetes.io/hostname,
 * ScheduleAnyway, maxSkew 1, over the workload's own selector. The API server takes one constraint per
 * {topologyKey, whenUnsatisfiable} (a second is a "Duplicate value"): where the pod spec has one on the hostname
 * with ScheduleAnyway already (counting other pods, none, or too loose to spread them), that one is pointed at the
 * pods and set to maxSkew 1 instead. Undefined when the edits cannot be written.
 */
export function hostnameSpreadEdits(workload: Resource, template: PodTemplate): TextEdit[] | undefined {
  const labelSelector = workloadSelector(workload) ?? { matchLabels: template.labels };
  const path = [...template.path, 'spec', 'topologySpreadConstraints'];
  const constraints: unknown = template.spec?.topologySpreadConstraints;
  const index = Array.isArray(constraints) ? constraints.findIndex((c) => c?.topologyKey === HOSTNAME_TOPOLOGY && c?.whenUnsatisfiable === 'ScheduleAnyway') : -1;
  if (index < 0) return appendToSequence(workload, path, { maxSkew: 1, topologyKey: HOSTNAME_TOPOLOGY, whenUnsatisfiable: 'ScheduleAnyway', labelSelector });
  const existing = (constraints as any[])[index];
  const selector = selectorMatches(existing.labelSelector, template.labels) ? [] : setField(workload, [...path, index, 'labelSelector'], labelSelector);
  const skew = existing.maxSkew === 1 ? [] : setField(workload, [...path, index, 'maxSkew'], 1);
  return selector && skew ? [...skew, ...selector] : undefined;
}
