/** What a Job does with a pod it lost to a disruption: a drain's eviction, or its node's loss. */
export type DisruptedPodAction = 'Count' | 'Ignore' | 'FailJob' | 'FailIndex';

const ACTIONS: readonly string[] = ['Count', 'Ignore', 'FailJob', 'FailIndex'];

/**
 * The action of the Job's podFailurePolicy for a pod with the DisruptionTarget condition, which an eviction, the
 * taint manager and the pod garbage collector add to the pods they take: the first rule whose onPodConditions name it
 * (status True, the default). Exit-code rules are passed over: what a disrupted container exits with is not knowable
 * from the manifest (143 after SIGTERM, or nothing when its node is gone). Count, backoffLimit's way, when none says.
 */
export function disruptedPodAction(jobSpec: any): DisruptedPodAction {
  const rules: unknown = jobSpec?.podFailurePolicy?.rules;
  if (!Array.isArray(rules)) return 'Count';
  for (const rule of rules) {
    const conditions: unknown = rule?.onPodConditions;
    if (!Array.isArray(conditions) || !ACTIONS.includes(rule.action)) continue;
    if (conditions.some((c) => c?.type === 'DisruptionTarget' && (c.status ?? 'True') === 'True')) return rule.action;
  }
  return 'Count';
}
