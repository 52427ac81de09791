import { invalidYaml } from './invalid-yaml';
import { pdbMissing } from './pdb-missing';
import { probeLivenessEqualsReadiness } from './probe-liveness-equals-readiness';
import { singleReplica } from './single-replica';
import { templatedFile } from './templated-file';
import type { Rule } from './types';

/** Every rule, in the order of the catalogue. */
export const RULES: readonly Rule[] = [
  pdbMissing,
  singleReplica,
  probeLivenessEqualsReadiness,
  invalidYaml,
  templatedFile,
];

export function ruleById(id: string): Rule | undefined {
  return RULES.find((rule) => rule.meta.id === id);
}
