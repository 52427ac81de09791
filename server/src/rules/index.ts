import { annotationInvalid } from './annotation-invalid';
import { gpuKeepsNodesUp } from './gpu-keeps-nodes-up';
import { gpuLimitMismatch } from './gpu-limit-mismatch';
import { gpuPoolUntainted } from './gpu-pool-untainted';
import { gpuUntolerated } from './gpu-untolerated';
import { invalidYaml } from './invalid-yaml';
import { pdbMissing } from './pdb-missing';
import { probeLivenessChecksDependencies } from './probe-liveness-checks-dependencies';
import { probeLivenessEqualsReadiness } from './probe-liveness-equals-readiness';
import { probePortUnknown } from './probe-port-unknown';
import { probeReadinessMissing } from './probe-readiness-missing';
import { probeStartupMissing } from './probe-startup-missing';
import { singleReplica } from './single-replica';
import { templatedFile } from './templated-file';
import type { Rule } from './types';

/** Every rule, in the order of the catalogue. */
export const RULES: readonly Rule[] = [
  pdbMissing,
  singleReplica,
  probeLivenessEqualsReadiness,
  probeLivenessChecksDependencies,
  probeReadinessMissing,
  probeStartupMissing,
  probePortUnknown,
  gpuUntolerated,
  gpuLimitMismatch,
  gpuKeepsNodesUp,
  gpuPoolUntainted,
  invalidYaml,
  templatedFile,
  annotationInvalid,
];

export function ruleById(id: string): Rule | undefined {
  return RULES.find((rule) => rule.meta.id === id);
}
