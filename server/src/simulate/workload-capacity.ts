import { restartBackoff } from './backoff';
import type { ControlPlaneTimeline } from './control-plane';
import { EventQueue } from './event-queue';
import { FACT, TIMING } from './facts';
import { plural } from '../words';
import { workloadKey, type SimTopology, type SimWorkload } from './model';
import { nodeBackAt, nodeIsDown, podsBackAt, type NodeIncident } from './node-incidents';
import { describeCapacity, measure, stateOf, type Slot } from './capacity-state';
import { restartReadiness } from './restart-readiness';
import type { CapacityPoint, Scenario, State, TimelineEvent, WorkloadResult } from './types';

export interface SimContext {
  topology: SimTopology;
  scenario: Scenario;
  controlPlane: ControlPlaneTimeline;
  incidents: NodeIncident[];
  /** The last moment simulated. */
  end: number;
}

interface Note {
  reason: string;
  fact: string;
  /** Repeats of something already told (crash-loop cycles): they move the capacity curve, not the story. */
  repeat?: boolean;
  /** Worth telling even when the workload's state does not change. */
  always?: boolean;
  /** Bookkeeping that only matters when nothing else happened at that moment. */
  minor?: boolean;
}

const REPLACED_BY: Record<string, string> = {
  Deployment: 'ReplicaSet controller',
  ReplicaSet: 'ReplicaSet controller',
  ReplicationController: 'replication controller',
  StatefulSet: 'StatefulSet controller',
  DaemonSet: 'DaemonSet controller',
  Job: 'Job controller',
};

export interface WorkloadSimulation {
  result: WorkloadResult;
  events: TimelineEvent[];
  /** Nodes pushed into memory pressure by this workload's surge. */
  pressuredNodes: { node: string; at: number }[];
}

/** Serving capacity of one workload over the outage: a discrete-event run over its replicas. */
export function simulateWorkload(workload: SimWorkload, ctx: SimContext): WorkloadSimulation {
  const { controlPlane: cp, incidents, scenario } = ctx;
  const queue = new EventQueue();
  const notes = new Map<number, Note[]>();
  const label = `${workload.kind} ${workloadKey(workload)}`;
  // A new pod serves this long after it is scheduled: what the workload declares, else a cached image's start.
  const podStart = workload.startSeconds ?? TIMING.assumedPodStart;
  // A container started again on its node: it needs its declared start, unless its probes kill it first.
  const inPlaceStart = restartReadiness(workload, 0);
  const crashLoopNote = (at: number, what: string) => {
    if (!inPlaceStart.comesUp) note(at, { reason: `${label}: ${what}, but ${inPlaceStart.why}`, fact: FACT.probeKills, always: true });
  };
  const note = (at: number, n: Note) => {
    // A note about a later moment needs that moment in the run to be told.
    queue.schedule(at, () => {});
    const list = notes.get(at);
    if (list) list.push(n);
    else notes.set(at, [n]);
  };
  const slots: Slot[] = [];
  for (const [node, count] of Object.entries(workload.placement).sort(([a], [b]) => a.localeCompare(b))) {
    for (let i = 0; i < count; i++) slots.push({ id: slots.length, node, alive: true, listed: true, listedIsCurrent: true, generation: 0, restarts: 0 });
  }
  let desired = workload.kind === 'DaemonSet' ? slots.length : workload.replicas;
  const replacer = workload.staticPod ? undefined : REPLACED_BY[workload.kind];
  let load = 1;
  let apiCut = false;
  let cronFrozen = false;
  const pressuredNodes: { node: string; at: number }[] = [];

  /** The endpoint controller catches up with a new incarnation of the replica. */
  const refreshEndpoints = (slot: Slot, from: number, generation: number, why: string) => {
    const at = cp.firstControllers(from);
    queue.schedule(at, () => {
      if (slot.generation !== generation) return;
      slot.listed = slot.alive;
      slot.listedIsCurrent = slot.alive;
      note(at, { reason: why, fact: FACT.recovery, minor: true });
    });
  };

  /** The endpoint controller drops a dead pod, unless the replica is serving again by then. */
  const dropDeadEndpoint = (slot: Slot, from: number, why: string, fact: string = FACT.recovery) => {
    const at = cp.firstControllers(from);
    queue.schedule(at, () => {
      if (slot.alive || !slot.listed) return;
      slot.listed = false;
      note(at, { reason: why, fact });
    });
  };

  const eligibleNodes = (t: number) => {
    const candidates = workload.eligibleNodes ?? ctx.topology.nodes.filter((n) => !n.controlPlane).map((n) => n.name);
    return candidates.filter((n) => !nodeIsDown(incidents, n, t));
  };

  /** Where the scheduler puts a new pod: the eligible running node with the fewest of this workload's pods. */
  const pickNode = (at: number): string | undefined => {
    const count = (n: string) => slots.filter((s) => s.alive && s.node === n).length;
    return eligibleNodes(at).sort((a, b) => count(a) - count(b) || a.localeCompare(b))[0];
  };

  /** The HPA raises the replica count: new pods join, the surge spreads over more of them. */
  const scaleOut = (at: number, to: number, demand: number) => {
    const endpointsNow = cp.at(at).controllers;
    while (slots.length < to) {
      const node = pickNode(at);
      if (!node) break;
      const listed = endpointsNow && inPlaceStart.comesUp;
      slots.push({ id: slots.length, node, alive: inPlaceStart.comesUp, listed, listedIsCurrent: listed, generation: 0, restarts: 0 });
    }
    crashLoopNote(at, 'the new pods start');
    desired = Math.max(desired, to);
    load = demand / desired;
  };

  /** Until when a surge OOM-kills memory-limited containers of this workload (unset: no such surge). */
  let surgeRelief: number | undefined;

  /** A new pod for this replica, scheduled by the control plane; one that crash-loops is told when it is bound. */
  const replace = (slot: Slot, scheduledAt: number, why: string) => {
    const at = scheduledAt + (inPlaceStart.comesUp ? podStart : 0);
    const generation = ++slot.generation;
    // The replica now waits for a node: what happens to its old node no longer concerns it.
    slot.node = '';
    queue.schedule(at, () => {
      if (slot.generation !== generation) return;
      const node = pickNode(at);
      if (!node) {
        note(at, { reason: `${label}: no schedulable node for a replacement pod: it stays Pending`, fact: FACT.recovery });
        return;
      }
      slot.node = node;
      slot.alive = inPlaceStart.comesUp;
      slot.restarts = 0;
      const endpointsNow = cp.at(at).controllers;
      // A pod that is not ready is not listed.
      slot.listed = endpointsNow && slot.alive;
      slot.listedIsCurrent = slot.listed;
      note(at, { reason: `${why}; the replacement runs on ${node}`, fact: FACT.recovery });
      crashLoopNote(at, 'the replacement starts');
      if (!endpointsNow) refreshEndpoints(slot, at, generation, `${label}: endpoints updated with the new pod`);
      // A replacement that starts into a surge carries the same load, so it hits the same memory limit.
      if (slot.alive && surgeRelief !== undefined && at < surgeRelief && load > 1) oomLoop(slot, at + TIMING.assumedSurgeToMemoryLimit, surgeRelief, true);
    });
  };

  /** A pod gone for good: the control plane must notice, drop it from the Service and replace it. */
  const loseForGood = (slot: Slot, at: number, cause: string) => {
    slot.alive = false;
    const known = cp.at(at).writes ? at : cp.firstWrites(at) + TIMING.reconnect;
    dropDeadEndpoint(slot, known, `${label}: the dead pod is removed from its Service`);
    if (replacer) replace(slot, cp.firstScheduling(known), `${label}: the ${replacer} replaced the pod ${cause}`);
  };

  for (const incident of incidents) {
    queue.schedule(incident.at, () => {
      const onNode = slots.filter((s) => s.node === incident.node);
      const here = onNode.filter((s) => s.alive);
      // Replicas already down there still follow the node: their return waits for it again.
      for (const slot of onNode.filter((s) => !s.alive)) onNodeDown(slot, incident);
      if (!here.length) return;
      const { writes, controllers } = cp.at(incident.at);
      const consequence = workload.staticPod
        ? 'the kubelet starts static pods again from disk when the node is back'
        : !writes
          ? `nothing recreates ${here.length === 1 ? 'it' : 'them'} while the API is down`
          : controllers
            ? `the control plane notices after the ${TIMING.nodeMonitorGrace} s grace period`
            : 'with the controller manager down nobody marks the node NotReady or updates endpoints';
      note(incident.at, {
        reason: `${incident.what}: ${plural(here.length, 'pod')} of ${label} gone (${here.length} of ${desired}), ${consequence}`,
        fact: incident.fact,
      });
      for (const slot of here) onNodeDown(slot, incident);
    });
  }

  const onNodeDown = (slot: Slot, incident: NodeIncident) => {
    slot.alive = false;
    const generation = ++slot.generation;
    if (workload.staticPod) {
      const nodeBack = nodeBackAt(incidents, incident.node, incident.at);
      if (!inPlaceStart.comesUp) {
        queue.schedule(nodeBack, () => crashLoopNote(nodeBack, `${incident.node} is back and the kubelet starts static pod ${label} again from disk`));
        return;
      }
      const ready = nodeBack + inPlaceStart.after;
      queue.schedule(ready, () => {
        if (slot.generation !== generation) return;
        slot.alive = true;
        note(ready, { reason: `${incident.node} is back: the kubelet restarted static pod ${label}${inPlaceStart.after ? ` (serving after its ${inPlaceStart.after} s start)` : ''}`, fact: FACT.nodeReboot });
      });
      return;
    }
    // The kubelet needs the API to learn which regular pods are bound to its node (rule 7).
    const podsBack = podsBackAt(incidents, incident.node, incident.at, (t) => cp.firstWrites(t));
    const notReadyAt = cp.firstControllers(incident.at) + TIMING.nodeMonitorGrace;
    if (notReadyAt < podsBack) {
      dropDeadEndpoint(slot, notReadyAt, `${incident.node} marked NotReady ${TIMING.nodeMonitorGrace} s after the controller manager could watch it: ${label}'s pods there leave its Service`, FACT.nodeLifecycle);
      const evictAt = notReadyAt + TIMING.unreachableToleration;
      if (evictAt < podsBack) {
        if (workload.kind === 'DaemonSet') {
          note(notReadyAt, { reason: `${label}: DaemonSet pods tolerate an unreachable node: not evicted, not replaced`, fact: FACT.nodeLifecycle, always: true });
        } else if (workload.kind === 'StatefulSet') {
          note(evictAt, {
            reason: `${label}: its pod on ${incident.node} stays Terminating on the unreachable node and the StatefulSet will not start another with the same name until someone force-deletes it (or taints the node out-of-service)`,
            fact: FACT.nodeLifecycle,
            always: true,
          });
        } else if (replacer) {
          replace(slot, cp.firstScheduling(evictAt), `${label}: its pod on ${incident.node} was evicted ${TIMING.unreachableToleration} s after NotReady (default toleration) and the ${replacer} replaced it`);
        }
      }
    }
    // Restarted with new IPs but not ready yet: the endpoint controller drops the old IPs and lists none.
    if (!inPlaceStart.comesUp || inPlaceStart.after > 0) refreshEndpoints(slot, podsBack, generation, `${label}: its pods restarting on ${incident.node} are not ready: the endpoints drop their old IPs`);
    if (!inPlaceStart.comesUp) {
      queue.schedule(podsBack, () => {
        if (slot.generation === generation) crashLoopNote(podsBack, `${incident.node} reached the API again and its kubelet starts ${label}'s pods there again`);
      });
      return;
    }
    const podsReady = podsBack + inPlaceStart.after;
    queue.schedule(podsReady, () => {
      if (slot.generation !== generation) return;
      slot.alive = true;
      slot.listedIsCurrent = false;
      const frozen = !cp.at(podsReady).controllers;
      const started = inPlaceStart.after ? ` (serving after its ${inPlaceStart.after} s start)` : '';
      note(podsReady, {
        reason: frozen
          ? `${incident.node} reached the API again: its kubelet restarted ${label}'s pods there${started}, but with new pod IPs the frozen endpoints do not list until the controller manager returns`
          : `${incident.node} reached the API again: its kubelet restarted ${label}'s pods there${started} (new pod IPs)`,
        fact: frozen ? FACT.frozenEndpoints : FACT.recovery,
        always: frozen,
      });
      refreshEndpoints(slot, podsReady, generation, `${label}: endpoints updated with the restarted pods`);
    });
  };

  const restartInPlace = (slot: Slot, at: number, why: string, repeat = false) => {
    slot.alive = false;
    slot.restarts++;
    const generation = slot.generation;
    const delay = restartBackoff(slot.restarts);
    const frozen = workload.fronted && !cp.at(at).controllers;
    const unseen = frozen ? `; ${workload.probes.readiness ? 'its failing readiness probe' : 'the restart'} does not take it out of the frozen Service meanwhile` : '';
    // Unready for longer than a back-off: the endpoint controller, when it acts, takes the pod out of its Service.
    if (!inPlaceStart.comesUp || inPlaceStart.after > 0) dropDeadEndpoint(slot, at, `${label}: the restarted container is not ready, so its pod leaves its Service`);
    if (!inPlaceStart.comesUp) {
      note(at, { reason: `${why}; the kubelet restarts it in place after ${delay} s back-off: ${inPlaceStart.why}${unseen}`, fact: `${FACT.runningPods}; ${FACT.probeKills}`, repeat });
      return undefined;
    }
    const ready = at + delay + inPlaceStart.after;
    const started = inPlaceStart.after ? `, serves again after its ${inPlaceStart.after} s start` : '';
    note(at, { reason: `${why}; the kubelet restarts it in place after ${delay} s back-off${started} and it keeps its IP${unseen}`, fact: FACT.runningPods, repeat });
    queue.schedule(ready, () => {
      if (slot.generation !== generation || nodeIsDown(incidents, slot.node, ready)) return;
      slot.alive = true;
      note(ready, { reason: `${label}: container restarted`, fact: FACT.runningPods, repeat });
      if (!slot.listed) refreshEndpoints(slot, ready, generation, `${label}: the restarted pod is ready and back in its Service`);
    });
    return ready;
  };

  for (const event of scenario.events) {
    if ((event.kind !== 'pod-crash' && event.kind !== 'traffic-surge') || event.namespace !== workload.namespace || event.workload !== workload.name) continue;
    if (event.kind === 'pod-crash') {
      queue.schedule(event.at, () => {
        const slot = slots.find((s) => s.alive);
        if (!slot) {
          note(event.at, { reason: `${label}: no running pod left to crash`, fact: FACT.runningPods, always: true });
          return;
        }
        if (event.mode === 'restartable' || workload.staticPod) {
          restartInPlace(slot, event.at, `${label}: a container on ${slot.node} crashed`);
          return;
        }
        const writes = cp.at(event.at).writes;
        note(event.at, {
          reason: writes
            ? `${label}: a pod on ${slot.node} failed for good; ${replacer ? `the ${replacer} replaces it` : 'nothing owns it to replace it'}`
            : `${label}: a pod on ${slot.node} failed for good: nothing replaces it while the API is down and its frozen Service keeps sending it ${fraction(1, listedCount())} of new connections`,
          fact: writes ? FACT.recovery : FACT.frozenEndpoints,
        });
        loseForGood(slot, event.at, 'that failed');
      });
    } else {
      queue.schedule(event.at, () => onSurge(event.at, event.factor));
    }
  }

  const listedCount = () => slots.filter((s) => s.listed).length;

  const onSurge = (at: number, factor: number) => {
    if (!(factor > 1)) return;
    const running = slots.filter((s) => s.alive).length;
    const hpa = workload.hpa;
    const scaledTo = hpa ? Math.min(hpa.max, Math.ceil(factor * Math.max(running, 1))) : running;
    const demand = factor * Math.max(running, 1);
    const autoscaling = cp.at(at).controllers;
    if (hpa && autoscaling && cp.at(at).scheduling) {
      load = factor;
      const relief = cp.firstScheduling(at + TIMING.hpaSync) + podStart;
      note(at, { reason: `${label}: traffic ×${factor}; the HPA scales it from ${running} to ${scaledTo} pods within ~${TIMING.hpaSync} s plus start-up`, fact: FACT.surge });
      queue.schedule(relief, () => {
        scaleOut(relief, scaledTo, demand);
        note(relief, { reason: `${label}: scaled out to ${scaledTo} pods`, fact: FACT.surge });
      });
      return;
    }
    load = factor;
    note(at, {
      reason: `${label}: traffic ×${factor} on ${plural(running, 'pod')}; ${!hpa ? 'it has no HPA' : autoscaling ? `its HPA asks for ${scaledTo} pods but no scheduler binds them` : 'its HPA is frozen with the API'}: no scale-out, each pod carries ${factor}× its load`,
      fact: FACT.surge,
    });
    // New pods need the scheduler as well as the HPA.
    const relief = hpa ? cp.firstScheduling(cp.firstControllers(at) + TIMING.hpaSync) + podStart : Infinity;
    if (Number.isFinite(relief)) {
      queue.schedule(relief, () => {
        scaleOut(relief, scaledTo, demand);
        note(relief, { reason: `${label}: the HPA acts again and scales it to ${scaledTo} pods`, fact: FACT.recovery });
      });
    }
    if (workload.memoryLimit) {
      surgeRelief = relief;
      for (const slot of slots.filter((s) => s.alive)) oomLoop(slot, at + TIMING.assumedSurgeToMemoryLimit, relief, true);
    } else {
      const evictAt = at + TIMING.assumedSurgeToEviction;
      queue.schedule(evictAt, () => {
        if (evictAt >= relief) return;
        const victims = slots.filter((s) => s.alive);
        for (const node of new Set(victims.map((s) => s.node))) pressuredNodes.push({ node, at: evictAt });
        note(evictAt, {
          reason: `${label} has no memory limit: under ×${factor} traffic its nodes (${[...new Set(victims.map((s) => s.node))].join(', ')}) come under memory pressure and the kubelet evicts its pods for good (assumed ~${TIMING.assumedSurgeToEviction} s to pressure)${workload.pdb ? '; its PodDisruptionBudget does not help: node-pressure eviction ignores PDBs' : ''}`,
          fact: FACT.surge,
        });
        for (const slot of victims) loseForGood(slot, evictAt, 'evicted under memory pressure');
      });
    }
  };

  const oomLoop = (slot: Slot, at: number, relief: number, first: boolean) => {
    const generation = slot.generation;
    queue.schedule(at, () => {
      if (slot.generation !== generation || !slot.alive || at >= relief || load <= 1) return;
      const back = restartInPlace(slot, at, `${label}: a container on ${slot.node} hit its memory limit under the surge and was OOM-killed (assumed ~${TIMING.assumedSurgeToMemoryLimit} s after each start)`, !first);
      if (back !== undefined) oomLoop(slot, back + TIMING.assumedSurgeToMemoryLimit, relief, false);
    });
  };

  // Changes of the control plane that touch this workload without touching its pods.
  let previousWrites = true;
  let previousControllers = true;
  for (const segment of cp.segments) {
    const at = segment.from;
    if (workload.apiClient && segment.writes !== previousWrites) {
      queue.schedule(at, () => {
        apiCut = !segment.writes;
        note(at, {
          reason: segment.writes
            ? `${label} reaches the API again`
            : `${label} talks to the API itself (${workload.apiClient}): its API calls fail at once; a leader-elected one loses its lease after ~${TIMING.leaderLease} s and typically exits and crash-loops (implementation-dependent, uncertain)${workload.ingressController ? '; as an ingress controller it keeps serving its last configuration, but a restarted one cannot start' : ''}`,
          fact: FACT.apiClients,
        });
      });
    }
    if (workload.kind === 'CronJob' && segment.controllers !== previousControllers) {
      queue.schedule(at, () => {
        cronFrozen = !segment.controllers;
        note(at, {
          reason: segment.controllers
            ? `${label}: the CronJob controller is back and starts at most one missed run (only within startingDeadlineSeconds)`
            : `${label}${workload.schedule ? ` (schedule "${workload.schedule}")` : ''}: no run starts while the controller manager is not acting`,
          fact: segment.controllers ? FACT.recovery : FACT.nothingReplaced,
        });
      });
    }
    if (workload.hpa && segment.controllers !== previousControllers) {
      queue.schedule(at, () =>
        note(at, {
          reason: segment.controllers ? `${label}: its HPA acts again` : `${label}: its HPA is frozen at ${slots.filter((s) => s.alive).length} replicas (no scale-out or scale-in)`,
          fact: FACT.controlLoops,
          always: true,
        }),
      );
    }
    previousWrites = segment.writes;
    previousControllers = segment.controllers;
  }

  // Run, taking one snapshot per moment.
  const capacity: CapacityPoint[] = [];
  const events: TimelineEvent[] = [];
  let lastState: State = 'ok';
  const snapshot = (at: number) => {
    const point = measure(at, slots, desired, workload.fronted, load);
    const previous = capacity[capacity.length - 1];
    const moved = !previous || previous.ready !== point.ready || previous.blackholed !== point.blackholed || previous.load !== point.load || previous.desired !== point.desired;
    if (moved) capacity.push(point);
    const state = stateOf(point, apiCut || cronFrozen);
    const told = (notes.get(at) ?? []).filter((n) => !n.repeat);
    const chosen = told.some((n) => !n.minor) ? told.filter((n) => !n.minor) : told;
    if (chosen.length && (state !== lastState || moved || chosen.some((n) => n.always))) {
      events.push({
        at,
        subject: { type: 'workload', name: workload.name, namespace: workload.namespace, kind: workload.kind },
        state,
        reason: [...new Set(chosen.map((n) => n.reason)), describeCapacity(point, state)].filter(Boolean).join('. '),
        fact: [...new Set(chosen.map((n) => n.fact))].join('; '),
      });
    }
    lastState = state;
  };
  snapshot(0);
  while (queue.size) {
    const at = queue.nextAt();
    if (at > ctx.end) break;
    while (queue.size && queue.nextAt() === at) queue.pop()!.run();
    snapshot(at);
  }
  const last = capacity[capacity.length - 1];
  if (last.at < ctx.end) capacity.push({ ...last, at: ctx.end });

  return {
    result: { kind: workload.kind, name: workload.name, namespace: workload.namespace, placement: workload.placementSource, capacity },
    events,
    pressuredNodes,
  };
}

function fraction(k: number, n: number): string {
  return n ? `${k}/${n}` : 'all';
}
