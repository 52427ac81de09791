import { FACT, TIMING } from '../../facts';
import { formatSeconds } from '../../format-time';
import { namesListed } from '../../../words';
import { crashLoopNote, eligibleNodes, emit, nextSchedulable, note, pickNode, placementBlock, refreshEndpoints, schedulable, type Handler } from '../run';

/**
 * The scheduler binds a replacement pod to the emptiest schedulable node, where it starts (up after its start,
 * at once when it crash-loops); with none, it stays Pending until a node takes new pods again. Bound, the pod
 * follows its node: a node that fails or is drained before the start ends takes it along.
 */
export const onReplacementScheduled: Handler<'replacement-scheduled'> = (run, { slot, generation, why }, at) => {
  if (slot.generation !== generation) return;
  const node = pickNode(run, at);
  if (!node) {
    const later = nextSchedulable(run, at);
    const until = later ? ` until ${later.node} takes new pods again at ${formatSeconds(later.at)}` : '';
    // Nodes that would take it but for its own placement rules: the first one's reason is said.
    const eligible = eligibleNodes(run);
    const blocked = eligible.filter((n) => schedulable(run, n, at)).map((n) => placementBlock(run, n));
    const taken = blocked.length && blocked.every((b) => b) ? `: on every node that would take it, ${blocked[0]}` : '';
    // Its own rules keep it off the other nodes: said, or the node that is down would look like the only cause.
    const workers = run.ctx.topology.nodes.filter((n) => !n.controlPlane).length;
    const only = !taken && eligible.length < workers ? `: its node selector, node affinity or tolerations let it run on ${eligible.length ? `${namesListed(eligible, 3)} only, none of which takes new pods now` : 'no node of the cluster'}` : '';
    note(run, at, { reason: `${run.label}: no schedulable node for a replacement pod${taken}${only}: it stays Pending${until}`, fact: FACT.recovery, always: true });
    // The scheduler tries a Pending pod again when a node joins or is uncordoned.
    if (later) emit(run, run.ctx.controlPlane.firstScheduling(later.at), { kind: 'replacement-scheduled', slot, generation, why });
    return;
  }
  slot.node = node;
  const readyAt = at + (run.inPlaceStart.comesUp ? run.podStart : 0);
  // Told when it serves; one that serves only after the simulated time is told now, or never.
  if (readyAt > run.ctx.end) note(run, at, { reason: `${why}; the replacement runs on ${node} and serves only after its ${formatSeconds(run.podStart)} start, beyond the simulated time`, fact: FACT.recovery, always: true });
  emit(run, readyAt, { kind: 'replacement-ready', slot, generation, why });
};

/** A replacement pod has started on the node it was bound to: it serves, or its probes kill it again and again. */
export const onReplacementReady: Handler<'replacement-ready'> = (run, { slot, generation, why }, at) => {
  if (slot.generation !== generation) return;
  const { label } = run;
  const { node } = slot;
  slot.alive = run.inPlaceStart.comesUp;
  slot.restarts = 0;
  const endpointsNow = run.ctx.controlPlane.at(at).controllers;
  // A pod that is not ready is not listed.
  slot.listed = endpointsNow && slot.alive;
  slot.listedIsCurrent = slot.listed;
  note(run, at, { reason: `${why}; the replacement runs on ${node}`, fact: FACT.recovery });
  // Every eviction of the replica not yet served is served now: its own replacement's, or that of one evicted in
  // turn before it served. One its probes kill before it is up (see crashLoopNote) serves none.
  if (slot.alive) {
    for (const record of run.evictions) if (record.slot === slot.id && record.replacementReady === undefined) record.replacementReady = at;
    run.moves.push({ slot: slot.id, at, node });
  }
  crashLoopNote(run, at, 'the replacement starts');
  if (!endpointsNow) refreshEndpoints(run, slot, at, generation, `${label}: endpoints updated with the new pod`, 'ready');
  // A replacement that starts into a surge carries the same load, so it hits the same memory limit.
  if (slot.alive && run.surgeRelief !== undefined && at < run.surgeRelief && run.load > 1) {
    emit(run, at + TIMING.assumedSurgeToMemoryLimit, { kind: 'oom-kill', slot, generation: slot.generation, first: true });
  }
};
