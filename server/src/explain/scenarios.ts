import { describeEveryPod } from '../inventory/inventory';
import type { Posture } from './posture';
import { HOVER_TIMING as T } from './timings';
import { plural } from '../words';

export type ScenarioName = 'Node drain' | 'Node crash' | 'Autoscaler scale-down' | 'Dependency outage' | 'Control plane down';

export interface ScenarioLine {
  scenario: ScenarioName;
  text: string;
}

const BATCH = new Set(['Job', 'CronJob']);

function pods(n: number): string {
  return plural(n, 'pod');
}

/** How evictions proceed under the workload's PDBs (shared by drains and autoscaler scale-down). */
function evictionPace(p: Posture): string {
  const n = p.replicas.value;
  if (p.pdbs.length > 1) return `its pods match ${p.pdbs.length} PDBs (${p.pdbs.map((x) => x.name).join(', ')}), so the eviction API refuses them (500) and the drain hangs`;
  const pdb = p.pdbs[0];
  const grace = `each pod gets ${p.graceSeconds} s to stop${p.preStop ? ' after its preStop hook' : ''}`;
  if (pdb && pdb.allowed === 0) return `PDB ${pdb.name} (${pdb.budget}) allows 0 evictions of ${pods(n)}: the eviction API answers 429 and the drain waits until someone intervenes`;
  if (pdb) return `PDB ${pdb.name} (${pdb.budget}) lets ${pdb.allowed} of ${pods(n)} go at a time, the next only once a replacement is ready; ${grace}`;
  if (n === 1) return `its only pod is evicted: offline until a replacement is scheduled and ready (${grace})`;
  if (!p.spread) return `no PDB and no spread rule: ${describeEveryPod(n)} may sit on the drained node and be evicted together (${grace})`;
  return `no PDB: the pods on that node are evicted together; spread across nodes, the others keep serving (${grace})`;
}

/** What a replacement pod's start adds, when the workload says how long it takes. */
function replacementStart(p: Posture): string {
  const start = p.startupSeconds;
  if (start === undefined) return '';
  const killer = p.containers.find((c) => !c.hasStartup && c.livenessStartBudget !== undefined && c.livenessStartBudget < start);
  if (killer) return ` Each replacement needs ${start} s to start, but ${killer.name}'s liveness kills it after ${killer.livenessStartBudget} s (no startup probe): replacements crash-loop and never become ready.`;
  return ` Each replacement needs ${start} s to start before it is ready.`;
}

function nodeDrain(p: Posture): string {
  if (p.kind === 'DaemonSet') return 'drains skip DaemonSet pods (`--ignore-daemonsets`): the pod runs until the node goes down, and nothing moves.';
  if (p.kind === 'Pod') return 'a bare pod is deleted and never comes back (`kubectl drain` refuses it without `--force`).';
  if (p.replicas.value === 0) return 'scaled to 0: nothing to evict.';
  return `${evictionPace(p)}.${replacementStart(p)}`;
}

function nodeCrash(p: Posture): string {
  const grace = `${T.nodeMonitorGraceOld}–${T.nodeMonitorGrace} s`;
  const stale = `pods on the dead node stay in the Service's endpoints until the node is marked unhealthy (~${grace})`;
  if (p.kind === 'DaemonSet') return `${stale}; DaemonSet pods tolerate an unreachable node forever and are never rescheduled elsewhere, so that node's pod is gone until the node returns, and the pods on the other nodes carry on.`;
  if (p.kind === 'Pod') return `${stale}; a bare pod is never replaced.`;
  const evict =
    p.unreachableSeconds === null
      ? 'it tolerates an unreachable node forever, so it is never evicted or replaced'
      : `evicted after ${p.unreachableSeconds} s of tolerationSeconds (~${T.nodeMonitorGrace + p.unreachableSeconds} s in all)${p.unreachableSeconds === T.unreachableToleration ? ', the default' : ''}`;
  const replace = p.kind === 'StatefulSet' ? '; a StatefulSet then still waits for the pod to be force-deleted (or the node tainted out-of-service) before it starts a replacement, since it never runs two pods with one identity' : ', then replaced';
  const n = p.replicas.value;
  const impact = n <= 1 ? `With ${pods(n)} the workload is down all that time.` : p.spread ? `Spread across nodes, ${n - 1} of ${pods(n)} keep serving.` : `Without a spread rule, ${describeEveryPod(n)} may be on that node.`;
  return `${stale}, ${evict}${replace}. ${impact}${replacementStart(p)}`;
}

function scaleDown(p: Posture): string {
  const blockers: string[] = [];
  if (p.safeToEvictFalse) blockers.push('`safe-to-evict: "false"`');
  if (p.kind === 'Pod') blockers.push('no controller (a bare pod)');
  if (p.localStorage) blockers.push('local storage (emptyDir/hostPath) not listed in `safe-to-evict-local-volumes`');
  if (p.pdbs.some((x) => x.allowed === 0)) blockers.push('a PDB that allows 0 evictions');
  if (p.kind === 'DaemonSet') return 'DaemonSet pods do not hold a node up; the pod goes with its node.';
  if (blockers.length) return `the Cluster Autoscaler will not remove a node running this pod (${blockers.join('; ')}): the node stays, and is paid for.`;
  if (p.replicas.value === 0) return 'scaled to 0: nothing to evict.';
  const grace = Math.min(p.graceSeconds, T.scaleDownMaxGrace);
  return `after ${T.scaleDownUnneeded / 60} min underused, the node is drained through the eviction API: ${evictionPace({ ...p, graceSeconds: grace })}.`;
}

function dependencyOutage(p: Posture): string {
  if (!p.containers.length) return 'no containers.';
  return (
    p.containers
      .map((c) => {
        if (c.livenessBudget !== undefined && c.livenessRestartsOnDependencies)
          return `${c.name}: liveness fails with the dependency after ${c.livenessBudget} s and the kubelet restarts every replica at once, a restart storm that cures nothing`;
        if (c.readinessBudget !== undefined)
          return `${c.name}: if readiness checks the dependency, pods leave the Service after ${c.readinessBudget} s and return with it; liveness does not restart them`;
        if (!c.receivesRequests) return `${c.name}: no port or Service sends it requests, so it meets the outage only in its own work`;
        return `${c.name}: no readiness probe, so pods keep receiving requests and fail them`;
      })
      .join('; ') + '.'
  );
}

function controlPlaneDown(p: Posture): string {
  if (p.kind === 'DaemonSet')
    return `its pods keep running on their nodes, but a node that reboots or joins gets no pod of it until the API is back (only static pods start without it), and a pod that dies is not replaced; crashed containers still restart in place (back-off up to ${T.backoffCap} s).`;
  if (BATCH.has(p.kind)) return `running pods finish, but ${p.kind === 'CronJob' ? 'no CronJob fires' : 'the Job creates no new pods'} until the API is back.`;
  const n = p.replicas.value;
  const capacity = p.hpas.length ? `the HPA is frozen, so ${pods(n)} (minReplicas) may be all the capacity there is` : `${pods(n)} is all the capacity there is`;
  const n1 = n > 1 ? ` and ~1/${n} of new connections fail` : ' and the workload is down';
  return `keeps serving on a frozen view: nothing is replaced, rescheduled or scaled (${capacity}). A pod that dies stays in the endpoints${n1}; crashed containers still restart in place (back-off up to ${T.backoffCap} s), and readiness no longer takes pods out of Services.`;
}

/** One line per failure scenario: what this workload does then. */
export function scenarioLines(p: Posture): ScenarioLine[] {
  return [
    { scenario: 'Node drain', text: nodeDrain(p) },
    { scenario: 'Node crash', text: nodeCrash(p) },
    { scenario: 'Autoscaler scale-down', text: scaleDown(p) },
    { scenario: 'Dependency outage', text: dependencyOutage(p) },
    { scenario: 'Control plane down', text: controlPlaneDown(p) },
  ];
}
