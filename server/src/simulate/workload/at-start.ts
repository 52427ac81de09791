import { stopping, type Slot } from '../capacity-state';
import { FACT } from '../facts';
import type { NotServing, SimWorkload } from '../model';
import { namesUpTo, plural } from '../../words';
import type { Note, WorkloadRun } from './run';
import { onNode } from '../on-node';

/**
 * One replica per pod of the placement, by node, named where its names are known; a pod that did not serve when the
 * cluster was read starts down and out of its Service.
 */
export function slotsAtStart(workload: SimWorkload): Slot[] {
  const down = new Map<string, NotServing[]>();
  for (const pod of workload.notServing ?? []) {
    const same = down.get(pod.node);
    if (same) same.push(pod);
    else down.set(pod.node, [pod]);
  }
  const slots: Slot[] = [];
  for (const [node, count] of Object.entries(workload.placement).sort(([a], [b]) => a.localeCompare(b))) {
    const pods = down.get(node) ?? [];
    const names = onNode(workload.podNames, node);
    for (let i = 0; i < count; i++) {
      const pod = names?.[i];
      const atStart = names ? pods.find((p) => p.pod === pod) : pods[i];
      slots.push({ id: slots.length, node, alive: !atStart, listed: !atStart, listedIsCurrent: !atStart, generation: 0, restarts: 0, ...(pod !== undefined ? { pod } : {}), ...(atStart ? { atStart } : {}) });
    }
  }
  return slots;
}

const SHOWN = 5;

function names(pods: NotServing[], what: (pod: NotServing) => string): string {
  return namesUpTo(pods.map(what), SHOWN).join(', ');
}

/** What the report says at 0 about the pods that did not serve when the cluster was read, by name. */
export function atStartNote(run: WorkloadRun): Note | undefined {
  const down = run.slots.filter((s) => s.atStart).map((s) => s.atStart!);
  if (!down.length) return undefined;
  const unready = down.filter((p) => p.why !== 'stopping');
  const leaving = down.filter((p) => p.why === 'stopping');
  const pods = run.slots.filter((s) => !stopping(s)).length;
  const parts: string[] = [];
  if (unready.length) {
    const why = (p: NotServing) => (p.why === 'node-not-ready' ? `${p.pod} on NotReady node ${p.node}` : `${p.pod} not Ready`);
    parts.push(`${pods - unready.length} of ${plural(pods, 'pod')} ready at the start (${names(unready, why)}): counted as not serving until something replaces ${unready.length === 1 ? 'it' : 'them'}`);
  }
  if (leaving.length) {
    const one = leaving.length === 1;
    const recreated = recreatedAtStart(run);
    const after =
      recreated === 0
        ? `nothing replaces ${one ? 'it' : 'them'}`
        : recreated === leaving.length
          ? `the StatefulSet controller recreates ${one ? 'it once it is' : 'them once they are'} gone`
          : `the StatefulSet controller recreates ${recreated} of them once they are gone`;
    const where = (p: NotServing) => (p.stuck ? `${p.pod} on NotReady node ${p.node}, stuck until the node is back` : `${p.pod} on ${p.node}`);
    parts.push(`${plural(leaving.length, 'pod')} already stopping (${names(leaving, where)}): deleted, ${one ? 'it serves' : 'they serve'} nothing and ${after}`);
  }
  return { reason: `${run.label}: ${parts.join('; ')}`, fact: FACT.frozenEndpoints, always: true };
}

/**
 * How many of the pods already stopping their controller recreates once they are gone: a StatefulSet short of its
 * replicas makes a pod of the same name again only then (a ReplicaSet has made its replacement already).
 */
export function recreatedAtStart(run: WorkloadRun): number {
  if (run.workload.kind !== 'StatefulSet') return 0;
  const leaving = run.slots.filter(stopping).length;
  return Math.min(leaving, Math.max(0, run.desired - (run.slots.length - leaving)));
}
