import { NAMED_PODS, podsSelectedBy, type ContainerProbes, type PdbView, type Posture } from './posture';
import { coveredPods } from './posture-line';
import { HOVER_TIMING as T } from './timings';
import { plural } from '../words';
import { markdownText } from './markdown-text';

export type ScenarioName = 'Node drain' | 'Node drain, scale-down' | 'Node failure' | 'Scale-down' | 'Dependency down' | 'Control plane down';

/** How a failure hurts, worst first: the workload goes offline, an operation or its recovery gets stuck, or it serves badly. */
export const HARMS = ['outage', 'stall', 'flaw'] as const;
export type Harm = (typeof HARMS)[number];

export interface Risk {
  harm: Harm;
  /** The harm in words for the card's verdict line: "one node drain takes it offline". */
  verdict: string;
}

/** One row of the card's table: what a failure does to this workload, short enough for a table cell. */
export interface ScenarioRow {
  scenario: ScenarioName;
  text: string;
  /** Undefined when the workload rides the failure out. */
  risk?: Risk;
}

const BATCH = new Set(['Job', 'CronJob']);

function row(scenario: ScenarioName, text: string, harm?: Harm, verdict?: string): ScenarioRow {
  return { scenario, text, risk: harm && verdict ? { harm, verdict } : undefined };
}

/** "both", "all 3": every pod of a workload, in few words. */
function every(n: number): string {
  return n === 2 ? 'both' : `all ${n}`;
}

/** The container whose probes kill a start the workload declares before it ends: its startup probe, else its liveness probe. */
function startKiller(p: Posture): ContainerProbes | undefined {
  const start = p.startupSeconds;
  return start === undefined ? undefined : p.containers.find((c) => (startBudget(c) ?? Infinity) < start);
}

/** Seconds its probes let a start take: its startup probe's, which holds liveness back, else its liveness probe's. */
function startBudget(c: ContainerProbes): number | undefined {
  return c.hasStartup ? c.startupStartBudget : c.livenessStartBudget;
}

/** What follows evicted pods: back once replaced, after a declared start, or never (their replacements crash-loop). */
function recovery(p: Posture): { text: string; forGood: boolean } {
  const killer = startKiller(p);
  if (killer) return { text: `; ${crashLoop(p, killer)}`, forGood: true };
  return { text: p.startupSeconds === undefined ? ': down until replaced' : `: down ~${p.startupSeconds} s until replaced`, forGood: false };
}

/** "1200 s starts crash-loop at 30 s": liveness kills each replacement before its declared start ends. */
function crashLoop(p: Posture, killer: ContainerProbes): string {
  return `${p.startupSeconds} s starts crash-loop at ${startBudget(killer)} s${killer.hasStartup ? ' (its startup probe)' : ''}`;
}

function nodeDrain(p: Posture): ScenarioRow {
  const drain = (text: string, harm?: Harm, verdict?: string) => row('Node drain', text, harm, verdict);
  const n = p.replicas.value;
  if (p.kind === 'DaemonSet') return drain('skipped (`--ignore-daemonsets`): runs until the node stops');
  // `--force` deletes it through the eviction API too: its PDB, which counts a bare pod for none, refuses that.
  if (p.kind === 'Pod' && p.pdbs.some((x) => x.allowed === 0)) return drain('hangs: its PDB allows no eviction of a bare pod (429), `--force` or not', 'stall', 'node drains hang on it: its PDB allows 0 evictions');
  if (p.kind === 'Pod') return drain('a bare pod is deleted for good (drain needs `--force`)', 'outage', 'one node drain deletes it for good');
  if (p.suspended) return drain(suspendedText(p));
  if (n === 0) return drain('scaled to 0: nothing to evict');
  if (BATCH.has(p.kind) && p.disruptedPod === 'Ignore') return drain('its pod is evicted and rerun: its podFailurePolicy ignores disruptions, whatever backoffLimit');
  const fails = BATCH.has(p.kind) ? jobFailsOnDisruption(p) : undefined;
  if (fails) return drain(`its evicted pod ${fails}, not rerun`, 'outage', `one node drain fails the Job (${failureCause(p)})`);
  if (BATCH.has(p.kind)) return drain('its pod is evicted and rerun from scratch');
  if (p.pdbsShareAPod) return drain(`hangs: ${p.pdbs.length} PDBs match its pods (eviction API 500)`, 'stall', `node drains hang on it: ${p.pdbs.length} PDBs match its pods`);
  // No pod has two budgets now: each budget counts the pods it selects, and the pods none selects go as if there were none.
  const unguarded = Math.max(0, n - podsSelectedBy(p.pdbs));
  const blocking = p.pdbs.filter((x) => x.allowed === 0);
  const its = (pdbs: readonly PdbView[]) => (pdbs.length === 1 ? 'its PDB allows' : `its ${pdbs.length} PDBs allow`);
  const hang = `node drains hang on it: ${blocking.length === 1 ? 'its PDB allows' : 'its PDBs allow'} 0 evictions`;
  if (blocking.length && podsSelectedBy(blocking) >= n) return drain(`hangs: ${its(blocking)} 0 of ${plural(n, 'pod')} to go (429)`, 'stall', hang);
  if (blocking.length) return drain(`hangs on ${heldPods(blocking, n)}: ${its(blocking)} no eviction (429)${unguarded ? `; ${plural(unguarded, 'pod')} with no PDB may go at once` : ''}`, 'stall', hang);
  const after = recovery(p);
  const lets = p.pdbs.length ? `${p.pdbs.length === 1 ? 'PDB lets' : 'PDBs let'} ${unguarded + p.pdbs.reduce((sum, x) => sum + x.allowed, 0)}` : undefined;
  const bare = unguarded && lets ? ` (${unguarded} with no PDB)` : '';
  if (lets && after.forGood) return drain(`${lets} go${bare}${after.text}, drain stalls`, 'outage', 'a node drain loses pods for good: replacements crash-loop');
  if (lets) return drain(`${lets} of ${plural(n, 'pod')} go at a time${bare}, ${p.graceSeconds} s each to stop`);
  const forGood = after.forGood ? ' for good' : '';
  if (n === 1) return drain(`its only pod is evicted${after.text}`, 'outage', `one node drain takes it offline${forGood}`);
  if (!p.spread) return drain(`${every(n)} pods may go at once${after.text}`, 'outage', `one node drain can take ${every(n)} pods offline${forGood}`);
  if (after.forGood) return drain(`pods on that node go${after.text}`, 'outage', 'a node drain loses pods for good: replacements crash-loop');
  return drain('pods on that node go at once; the others serve');
}

/** The pods budgets that allow no eviction hold: `pod web-0`, `pods web-0, web-1`, or how many they are. */
function heldPods(blocking: readonly PdbView[], replicas: number): string {
  if (blocking.length === 1) return coveredPods(blocking[0], replicas);
  const names = blocking.flatMap((x) => x.podNames ?? []);
  const held = podsSelectedBy(blocking);
  return names.length === held && held <= NAMED_PODS ? `pods ${names.map(markdownText).join(', ')}` : `${held} of ${plural(replicas, 'pod')}`;
}

function nodeFailure(p: Posture): ScenarioRow {
  const failure = (text: string, harm?: Harm, verdict?: string) => row('Node failure', text, harm, verdict);
  const n = p.replicas.value;
  const marked = T.nodeMonitorGrace;
  if (p.kind === 'DaemonSet') return failure("only that node's pod is lost, until the node returns");
  if (p.kind === 'Pod') return failure(`out of endpoints after ~${marked} s; a bare pod is never replaced`, 'outage', 'one node failure loses it for good');
  if (p.suspended) return failure(suspendedText(p));
  if (n === 0) return failure('scaled to 0: nothing runs there');
  const offline = n === 1 || !p.spread;
  const who = BATCH.has(p.kind) ? 'its pod is lost' : n === 1 ? 'down' : p.spread ? 'pods there down' : `${every(n)} may be down`;
  const allOffline = n === 1 ? 'one node failure takes it offline' : `one node failure can take ${every(n)} pods offline`;
  if (p.unreachableSeconds === null) return failure('never evicted from a dead node: tolerates unreachable', offline ? 'outage' : 'flaw', offline ? `${allOffline} for good` : 'pods on a dead node are never replaced');
  const killer = startKiller(p);
  if (killer) return failure(`${who} for good: ${crashLoop(p, killer)}`, 'outage', offline ? `${allOffline} for good` : 'a node failure loses pods for good: replacements crash-loop');
  const evicted = marked + p.unreachableSeconds;
  if (p.kind === 'StatefulSet') return failure(`${who} until force-deleted (≥ ~${evicted} s)`, offline ? 'outage' : 'stall', offline ? `${allOffline} until force-deleted` : 'pods on a dead node wait for a force-delete');
  const start = p.startupSeconds ?? 0;
  const timing = start ? `~${evicted + start} s (toleration ${p.unreachableSeconds} s + ${start} s start)` : `~${evicted} s (toleration ${p.unreachableSeconds} s)`;
  const then = start ? '' : BATCH.has(p.kind) ? batchAfterLoss(p) : offline ? ', then replaced' : '; the rest serve';
  return failure(`${who} ${timing}${then}`, offline && !BATCH.has(p.kind) ? 'outage' : undefined, `${allOffline} for ~${evicted + start} s`);
}

/** A suspended Job runs no pod; a suspended CronJob starts no Job (one it started runs on, as it would anyway). */
function suspendedText(p: Posture): string {
  return p.kind === 'CronJob' ? 'suspended: it starts no Job' : 'suspended: no pod of it runs';
}

/** How a pod a Job lost to a disruption fails the Job, in words; undefined when it is rerun. */
function jobFailsOnDisruption(p: Posture): string | undefined {
  if (p.disruptedPod === 'FailJob') return 'fails the Job at once (its podFailurePolicy)';
  if (p.disruptedPod === 'Count' && p.backoffLimit === 0) return 'counts as failed: with backoffLimit 0 the Job fails';
  return undefined;
}

function failureCause(p: Posture): string {
  return p.disruptedPod === 'FailJob' ? 'podFailurePolicy FailJob' : 'backoffLimit 0';
}

/** What follows a Job's pod lost with its node, after the time it takes to evict it. */
function batchAfterLoss(p: Posture): string {
  if (p.disruptedPod === 'Ignore') return ', then rerun: its podFailurePolicy ignores disruptions';
  const fails = jobFailsOnDisruption(p);
  return fails ? `, then it ${fails}` : ', then rerun';
}

/** What a scale-down does, or undefined when it is only a drain after the autoscaler's wait (the drain's row says it). */
function scaleDown(p: Posture): ScenarioRow | undefined {
  const scale = (text: string, harm?: Harm, verdict?: string) => row('Scale-down', text, harm, verdict);
  if (p.kind === 'DaemonSet') return scale('its pod goes with its node; it holds no node up');
  // No pod, nothing to hold a node: whatever its PDB or annotations say.
  if (p.suspended) return scale(suspendedText(p));
  if (p.replicas.value === 0) return scale('scaled to 0: nothing to evict');
  const blockers: string[] = [];
  if (p.safeToEvictFalse) blockers.push('safe-to-evict "false"');
  // safe-to-evict "true" lets the autoscaler move a pod without a controller or with local storage (not past its PDB).
  if (p.kind === 'Pod' && !p.safeToEvictTrue) blockers.push('a bare pod');
  if (p.localStorage && !p.safeToEvictTrue) blockers.push('local storage');
  if (p.pdbs.some((x) => x.allowed === 0)) blockers.push('a PDB allowing 0');
  if (blockers.length) {
    const why = `${blockers[0]}${blockers.length > 1 ? ` +${blockers.length - 1}` : ''}`;
    return scale(`its node is kept, and paid for: ${why}`, 'flaw', `its node never scales down (${blockers[0]})`);
  }
  return undefined;
}

/** A container's answer to a dependency outage, worst first by its rank. */
function dependencyAnswer(c: ContainerProbes, p: Posture): { rank: number; text: string; risk?: Risk } {
  const n = p.replicas.value;
  const pods = p.kind === 'DaemonSet' ? 'every pod' : n === 1 ? 'its pod' : `${every(n)} pods`;
  if (c.refused) return { rank: 4, text: `no pod runs: the API server rejects ${markdownText(c.refused.timing)}, which ${c.refused.why}` };
  if (c.livenessBudget !== undefined && c.livenessRestartsOnDependencies)
    return { rank: 3, text: `liveness restarts ${pods} after ${c.livenessBudget} s: a restart storm`, risk: { harm: 'stall', verdict: `a dependency outage restarts ${pods} at once` } };
  if (c.readinessBudget === undefined && c.receivesRequests)
    return { rank: 2, text: 'no readiness probe: pods take requests and fail them', risk: { harm: 'flaw', verdict: 'its pods take requests they cannot serve (no readiness probe)' } };
  if (c.readinessBudget !== undefined) return { rank: 1, text: `out of the Service after ${c.readinessBudget} s, if readiness checks it` };
  return { rank: 0, text: 'only its own work fails: nothing sends it requests' };
}

function dependencyDown(p: Posture): ScenarioRow {
  if (!p.containers.length) return row('Dependency down', 'no containers');
  const answers = p.containers.map((c) => ({ container: c.name, ...dependencyAnswer(c, p) }));
  const worst = answers.reduce((a, b) => (b.rank > a.rank ? b : a));
  const text = p.containers.length > 1 ? `${markdownText(worst.container)}: ${worst.text}` : worst.text;
  return { scenario: 'Dependency down', text, risk: worst.risk };
}

function controlPlaneDown(p: Posture): ScenarioRow {
  const down = (text: string) => row('Control plane down', text);
  if (p.kind === 'DaemonSet') return down('its pods run on; new or rebooted nodes get none');
  if (p.kind === 'CronJob') return down('running jobs finish; no CronJob fires until the API is back');
  if (p.kind === 'Job') return down('running pods finish; the Job starts no new ones');
  const n = p.replicas.value;
  if (n <= 1) return down('keeps serving on a frozen view; if its pod dies, it is down');
  if (p.hpas.length) return down(`keeps serving on a frozen view; HPA frozen, maybe at ${n} pods`);
  return down('keeps serving on a frozen view; nothing replaced or scaled');
}

/** One row per failure: what it does to this workload, and how that hurts. */
export function scenarioRows(p: Posture): ScenarioRow[] {
  const scale = scaleDown(p);
  const drain = scale ? nodeDrain(p) : { ...nodeDrain(p), scenario: 'Node drain, scale-down' as const };
  return [drain, nodeFailure(p), ...(scale ? [scale] : []), dependencyDown(p), controlPlaneDown(p)];
}
