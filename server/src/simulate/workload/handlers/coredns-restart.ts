import { FACT } from '../../facts';
import { nodeIsDown } from '../../node-incidents';
import { emit, note, type Handler } from '../run';
import { countRestart, syncedAfter } from './restart';

/**
 * CoreDNS restarts (the cluster's DNS workload): with the API up it syncs at once; with the API down its
 * replicas cannot list Services, so none is ready (its ready plugin answers 503) until the API returns, as
 * the DNS component tells. They keep their IPs, so the frozen kube-dns Service still sends them queries.
 */
export const onCorednsRestart: Handler<'coredns-restart'> = (run, _event, at) => {
  const cp = run.ctx.controlPlane;
  const restarted = run.slots.filter((s) => s.alive);
  if (!restarted.length) return;
  // Said, or the restart asked for looked ignored.
  if (cp.at(at).writes) return note(run, at, { reason: `${run.label}: restarted with the API up, which its replicas sync with as they start: ready again within seconds`, fact: FACT.dns, always: true });
  const synced = syncedAfter(run, at);
  for (const slot of restarted) {
    slot.alive = false;
    countRestart(slot, at);
    emit(run, synced.at, { kind: 'coredns-synced', slot, generation: slot.generation });
  }
  note(run, at, { reason: `${run.label}: CoreDNS restarted while the API is down: its replicas cannot sync Services, so none is ready and they answer SERVFAIL ${synced.when}`, fact: FACT.dns, always: true });
};

/** A restarted CoreDNS replica has synced with the API again: ready, unless its pod was replaced or its node went down meanwhile. */
export const onCorednsSynced: Handler<'coredns-synced'> = (run, { slot, generation }, at) => {
  if (slot.generation !== generation || nodeIsDown(run.ctx.incidents, slot.node, at)) return;
  slot.alive = true;
  slot.upSince = at;
  note(run, at, { reason: `${run.label}: CoreDNS synced with the API again: ready`, fact: FACT.dns });
};
