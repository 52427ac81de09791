import { annotationInvalid } from './annotation-invalid';
import { controlPlaneSingle } from './control-plane-single';
import { dnsSinglePoint } from './dns-single-point';
import { etcdEvenMembers } from './etcd-even-members';
import { gpuKeepsNodesUp } from './gpu-keeps-nodes-up';
import { gpuLimitMismatch } from './gpu-limit-mismatch';
import { gpuPoolUntainted } from './gpu-pool-untainted';
import { gpuUntolerated } from './gpu-untolerated';
import { hpaMinOne } from './hpa-min-one';
import { hpaNoHeadroom } from './hpa-no-headroom';
import { hpaReplicasConflict } from './hpa-replicas-conflict';
import { invalidYaml } from './invalid-yaml';
import { kubeletMemoryEvictionOff } from './kubelet-memory-eviction-off';
import { kubeletMemoryUnreserved } from './kubelet-memory-unreserved';
import { memoryUnbounded } from './memory-unbounded';
import { nodeAgentMissing } from './node-agent-missing';
import { nodeAgentPriority } from './node-agent-priority';
import { nodeAgentUntolerated } from './node-agent-untolerated';
import { pdbBlocksEviction } from './pdb-blocks-eviction';
import { pdbMissing } from './pdb-missing';
import { pdbMultiple } from './pdb-multiple';
import { pdbNoBudget } from './pdb-no-budget';
import { pdbSelectsNothing } from './pdb-selects-nothing';
import { pdbUnhealthyPodsBlock } from './pdb-unhealthy-pods-block';
import { pinnedToNode } from './pinned-to-node';
import { probeLivenessChecksDependencies } from './probe-liveness-checks-dependencies';
import { probeLivenessEqualsReadiness } from './probe-liveness-equals-readiness';
import { probePortUnknown } from './probe-port-unknown';
import { probeReadinessMissing } from './probe-readiness-missing';
import { probeStartupMissing } from './probe-startup-missing';
import { recreateDropsAll } from './recreate-drops-all';
import { replicasNotSpread } from './replicas-not-spread';
import { sessionsLostOnEviction } from './sessions-lost-on-eviction';
import { singleReplica } from './single-replica';
import { templatedFile } from './templated-file';
import { toleratesEveryTaint } from './tolerates-every-taint';
import { unschedulable } from './unschedulable';
import type { Rule } from './types';

/** Every rule, in the order of the catalogue. */
export const RULES: readonly Rule[] = [
  pdbMissing,
  pdbBlocksEviction,
  pdbMultiple,
  pdbSelectsNothing,
  pdbNoBudget,
  pdbUnhealthyPodsBlock,
  sessionsLostOnEviction,
  recreateDropsAll,
  singleReplica,
  replicasNotSpread,
  pinnedToNode,
  hpaReplicasConflict,
  hpaMinOne,
  hpaNoHeadroom,
  memoryUnbounded,
  probeLivenessEqualsReadiness,
  probeLivenessChecksDependencies,
  probeReadinessMissing,
  probeStartupMissing,
  probePortUnknown,
  gpuUntolerated,
  gpuLimitMismatch,
  gpuKeepsNodesUp,
  gpuPoolUntainted,
  nodeAgentPriority,
  nodeAgentUntolerated,
  nodeAgentMissing,
  toleratesEveryTaint,
  kubeletMemoryUnreserved,
  kubeletMemoryEvictionOff,
  controlPlaneSingle,
  etcdEvenMembers,
  dnsSinglePoint,
  unschedulable,
  invalidYaml,
  templatedFile,
  annotationInvalid,
];

export function ruleById(id: string): Rule | undefined {
  return RULES.find((rule) => rule.meta.id === id);
}
