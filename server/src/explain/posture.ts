import type { EffectiveReplicas, Inventory } from '../inventory/inventory';
import { autoscalerBounds } from '../manifest/autoscaler';
import { declaredFacts } from '../manifest/declared';
import { agentDuty, effectsToleratedEverywhere, nodeAgentOf } from '../manifest/node-agent';
import { declaredPorts, dependencyCheckOf, failureBudgetSeconds, isAuxiliaryPort, portNeverResolves, PROBE_FIELDS, probeHandler, refusedTiming, sameHandler, startBudgetSeconds, type RefusedWhy } from '../manifest/probe';
import type { Resource } from '../manifest/parse';
import { describePdbBudget, evictionsAllowedBy, pdbBudget, pdbSelector, rejectedPdb } from '../manifest/pdb';
import type { LabelSelector } from '../manifest/selector';
import { unscaledBy } from '../rules/pdb-counting';
import { nodeLossTolerationSeconds } from '../manifest/scheduling';
import { idleSpreadConstraints, spreadsAcrossFailureDomains, type IdleSpreadConstraint } from '../manifest/spread';
import { disruptedPodAction, type DisruptedPodAction } from '../manifest/pod-failure-policy';
import { podTemplateOf, runningContainersOf } from '../manifest/workload';
import { HOVER_TIMING } from './timings';
import { autoscalerEviction } from '../manifest/autoscaler-eviction';
import { shownValue } from '../manifest/integer-field';

/** Pods of a workload a card names, of those one PDB selects: more are counted. */
export const NAMED_PODS = 3;

export interface PdbView {
  name: string;
  /** `maxUnavailable 1`, or `no minAvailable or maxUnavailable`. */
  budget: string;
  /** Evictions allowed with every pod it selects healthy (0 when the PDB states no budget). */
  allowed: number;
  /** How many of the workload's pods it selects: fewer than its replicas when it picks some of a StatefulSet's out by name or index. */
  selected: number;
  /** The names of those pods when it selects fewer than all, and no more than a card names (`web-0`). */
  podNames?: string[];
}

/** How many pods the budgets select between them (a pod two of them select counted twice). */
export function podsSelectedBy(pdbs: readonly PdbView[]): number {
  return pdbs.reduce((sum, pdb) => sum + pdb.selected, 0);
}

/** A probe value the API server refuses, as a card says it: `livenessProbe periodSeconds -5`, and why (`is negative`). */
export interface RefusedProbeTiming {
  timing: string;
  why: RefusedWhy;
}

export interface ContainerProbes {
  name: string;
  /** Undefined without a readiness probe, or with one the API server refuses (`refused`). */
  readinessBudget?: number;
  /** Undefined without a liveness probe, or with one the API server refuses (`refused`). */
  livenessBudget?: number;
  /** Its first probe timing the API server refuses: it rejects the pod. */
  refused?: RefusedProbeTiming;
  /** Liveness restarts on what readiness is for: it shares readiness' handler, or checks dependencies. */
  livenessRestartsOnDependencies: boolean;
  /** Liveness runs readiness' very check. */
  livenessSharesReadiness: boolean;
  hasStartup: boolean;
  /** Seconds liveness allows a start (initialDelaySeconds + failureThreshold × periodSeconds); undefined without liveness. */
  livenessStartBudget?: number;
  /** The same of its startup probe, which holds liveness back and kills the start itself when it runs out. */
  startupStartBudget?: number;
  /** Something sends it requests: it declares a port that is not only for metrics, or a Service fronts the workload. */
  receivesRequests: boolean;
}

/** What a workload's manifests say about how it fails: the numbers every hover line is drawn from. */
export interface Posture {
  kind: string;
  replicas: EffectiveReplicas;
  hpas: { name: string; min: number; max?: number }[];
  /** The PDBs over some pod of it: over every one, or over those they pick out of a StatefulSet by name or index. */
  pdbs: PdbView[];
  /** Some pod of it is selected by more than one of those PDBs: the eviction API refuses to evict it. */
  pdbsShareAPod: boolean;
  spread: boolean;
  /** The first spread constraint on its own pods that spreads nothing for its maxSkew (one the API server refuses first, whether or not another spreads them). */
  idleSpread?: IdleSpreadConstraint;
  graceSeconds: number;
  preStop: boolean;
  /** Seconds pods stay bound to an unreachable node before eviction; null when they tolerate it forever. */
  unreachableSeconds: number | null;
  safeToEvictFalse: boolean;
  /** See AutoscalerEviction. */
  localStorage: boolean;
  /** Its pod says `safe-to-evict: "true"`: the autoscaler moves it though it has local storage or no controller. */
  safeToEvictTrue: boolean;
  /** How many failed pods its Job takes before it fails (Jobs and CronJobs; 6 unless set). */
  backoffLimit?: number;
  /** What its Job does with a pod a drain or a node's loss took (Jobs and CronJobs; see disruptedPodAction). */
  disruptedPod?: DisruptedPodAction;
  /** A Job or CronJob with `suspend: true`: it runs no pod, or starts no Job. */
  suspended?: boolean;
  containers: ContainerProbes[];
  /** How long the app says it needs to start (kube-resilience/startup-seconds). */
  startupSeconds?: number;
  /** For a DaemonSet that keeps nodes working: what it does, its priority and the taints it rides out. */
  nodeAgent?: AgentPosture;
}

export interface AgentPosture {
  /** The agent in words: "kube-proxy", "the CNI agent calico-node", "a DaemonSet in kube-system". */
  description: string;
  /** What a node runs without when the agent is gone ("node-local DNS caching"); undefined when its image does not tell. */
  duty?: string;
  priorityClassName?: string;
  /** The blocking effects (NoSchedule, NoExecute) whose every taint it tolerates. */
  toleratedEffects: string[];
}

function agentPostureOf(resource: Resource): AgentPosture | undefined {
  const agent = nodeAgentOf(resource);
  if (!agent) return undefined;
  const spec = podTemplateOf(resource)?.spec ?? {};
  return {
    description: agent.description,
    duty: agent.role ? agentDuty(agent) : undefined,
    priorityClassName: typeof spec.priorityClassName === 'string' ? spec.priorityClassName : undefined,
    toleratedEffects: effectsToleratedEverywhere(spec),
  };
}

function unreachableToleration(spec: any, kind: string): number | null {
  // The DaemonSet controller gives its pods tolerations of the node controller's taints without a limit.
  if (kind === 'DaemonSet') return null;
  const own = nodeLossTolerationSeconds(spec, 'node.kubernetes.io/unreachable');
  return own === undefined ? HOVER_TIMING.unreachableToleration : own;
}

export function postureOf(resource: Resource, inventory: Inventory): Posture {
  const template = podTemplateOf(resource);
  const spec = template?.spec ?? {};
  const replicas = inventory.effectiveReplicas(resource);
  const hpas = inventory.hpasTargeting(resource);
  const expected = replicas.value;
  // One the API server rejects is never created: it limits nothing.
  const guarding = inventory.pdbsSelectingAnyPodOf(resource).filter((pdb) => !rejectedPdb(pdb));
  const selectors = guarding.map((pdb) => pdbSelector(pdb) as LabelSelector);
  const pdbs = guarding.map((pdb, i) => {
    const selected = inventory.podsSelectedOf(resource, selectors[i]);
    const podNames = selected < expected && selected <= NAMED_PODS ? inventory.podNamesSelectedOf(resource, selectors[i]) : [];
    return { name: pdb.name ?? '(unnamed)', budget: describePdbBudget(pdb, expected), allowed: allowedBy(pdb, expected, selected, inventory), selected, ...(podNames.length ? { podNames } : {}) };
  });
  const pdbsShareAPod = selectors.some((a, i) => selectors.slice(i + 1).some((b) => inventory.selectsSomePodOf(resource, [a, b])));
  const fronted = inventory.servicesFronting(resource).length > 0;
  const containers = runningContainersOf(resource).map(({ container, name }) => {
    const liveness = probeHandler(container.livenessProbe, container);
    const readiness = probeHandler(container.readinessProbe, container);
    return {
      name,
      readinessBudget: container.readinessProbe ? failureBudgetSeconds(container.readinessProbe, 'readinessProbe') : undefined,
      livenessBudget: container.livenessProbe ? failureBudgetSeconds(container.livenessProbe, 'livenessProbe') : undefined,
      livenessSharesReadiness: sameHandler(liveness, readiness),
      livenessRestartsOnDependencies: sameHandler(liveness, readiness) || (liveness?.type === 'httpGet' && !!dependencyCheckOf(liveness.path, container)),
      hasStartup: !!container.startupProbe,
      livenessStartBudget: container.livenessProbe && !portNeverResolves(container, container.livenessProbe) ? startBudgetSeconds(container.livenessProbe, 'livenessProbe') : undefined,
      startupStartBudget: container.startupProbe && !portNeverResolves(container, container.startupProbe) ? startBudgetSeconds(container.startupProbe, 'startupProbe') : undefined,
      receivesRequests: fronted || declaredPorts(container).some((port) => !isAuxiliaryPort(port)),
      refused: refusedProbeTiming(container),
    };
  });
  const grace = spec.terminationGracePeriodSeconds;
  return {
    kind: resource.kind,
    replicas,
    hpas: hpas.map((h) => {
      const { min, max } = autoscalerBounds(h);
      return { name: h.name ?? '(unnamed)', min, max };
    }),
    pdbs,
    pdbsShareAPod,
    spread: spreadsAcrossFailureDomains(spec, template?.labels ?? {}, resource.namespace, expected),
    idleSpread: template && idleSpreadConstraints(spec, template.labels, resource.namespace, expected)[0],
    graceSeconds: typeof grace === 'number' ? grace : HOVER_TIMING.terminationGrace,
    preStop: runningContainersOf(resource).some(({ container }) => !!container?.lifecycle?.preStop),
    unreachableSeconds: unreachableToleration(spec, resource.kind),
    ...autoscalerEvictionOf(resource),
    ...(resource.kind === 'Job' || resource.kind === 'CronJob' ? jobPostureOf(resource) : {}),
    containers,
    startupSeconds: declaredFacts(resource).startupSeconds,
    nodeAgent: agentPostureOf(resource),
  };
}

/**
 * Evictions the PDB allows with the `selected` pods healthy: none where the disruption controller cannot count the
 * pods against it (a bare pod or a DaemonSet's under maxUnavailable or a percentage: see unscaledBy).
 */
function allowedBy(pdb: Resource, expected: number, selected: number, inventory: Inventory): number {
  const budget = pdbBudget(pdb);
  return budget && unscaledBy(budget, inventory.expectedPods(pdb)) ? 0 : evictionsAllowedBy(pdb, expected, selected);
}

function refusedProbeTiming(container: any): RefusedProbeTiming | undefined {
  for (const field of PROBE_FIELDS) {
    const refused = refusedTiming(container[field], field);
    if (refused) return { timing: `${field} ${refused.field} ${shownValue(refused.value)}`, why: refused.why };
  }
  return undefined;
}

function autoscalerEvictionOf(resource: Resource): Pick<Posture, 'safeToEvictFalse' | 'safeToEvictTrue' | 'localStorage'> {
  const { safeToEvict, localStorage } = autoscalerEviction(resource);
  return { safeToEvictFalse: safeToEvict === false, safeToEvictTrue: safeToEvict === true, localStorage };
}

function jobPostureOf(resource: Resource): Pick<Posture, 'backoffLimit' | 'disruptedPod' | 'suspended'> {
  const jobSpec = resource.kind === 'CronJob' ? resource.object?.spec?.jobTemplate?.spec : resource.object?.spec;
  return {
    backoffLimit: typeof jobSpec?.backoffLimit === 'number' ? jobSpec.backoffLimit : HOVER_TIMING.jobBackoffLimit,
    disruptedPod: disruptedPodAction(jobSpec),
    suspended: resource.object?.spec?.suspend === true,
  };
}
