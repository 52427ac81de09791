import type { Fix } from '../fixes/edit';
import { setField } from '../fixes/yaml-edit';
import { ownedByAnother } from '../inventory/inventory';
import { declaredFacts, SESSION_SECONDS_ANNOTATION, SESSIONS_ANNOTATION, writtenAnnotations } from '../manifest/declared';
import { quotedDigits, shownValue, writtenNotInteger } from '../manifest/integer-field';
import type { Resource } from '../manifest/parse';
import { containersOf, describeResource, isHelmHook, podTemplateOf, type ContainerRef } from '../manifest/workload';
import { ordersDeployment } from './example-disruption';
import { addPdbFix, newPdbOf, type NewPdb } from './pdb-missing';
import type { Rule } from './types';
import { greatest } from '../extremes';

export const SAFE_TO_EVICT = 'cluster-autoscaler.kubernetes.io/safe-to-evict';
/** Kubernetes' default grace period, and the time an app is given to stop once SIGTERM arrives. */
const SHUTDOWN_SECONDS = 30;
/** The session length the fixes assume when the workload declares none. */
const ASSUMED_SESSION_SECONDS = 60;
/** The longest a leaving pod is kept serving: a longer preStop holds every drain and rollout that long, and longer sessions must reconnect anyway. */
const MAX_SERVING_SECONDS = 3600;
/** What the cluster autoscaler grants a pod it evicts on scale-down: its --max-graceful-termination-sec, 600 s by default. */
export const AUTOSCALER_GRACE_SECONDS = 600;

const KINDS = ['Deployment', 'StatefulSet', 'ReplicaSet', 'ReplicationController', 'Pod'];

interface Piece {
  missing: string;
  /** None for a PDB whose selector would also cover another workload's pods (see newPdbOf). */
  fix?: Fix;
}

/** How long sessions last, as declared or assumed, and how long a leaving pod should keep serving them. */
interface SessionLength {
  declared?: number;
  /** Seconds a leaving pod keeps serving: the session length, capped. */
  serving: number;
  /** Said in fix titles when nothing is declared. */
  assumption: string;
}

function sessionLength(workload: Resource): SessionLength {
  const declared = declaredFacts(workload).sessionSeconds;
  if (declared === undefined) return { serving: ASSUMED_SESSION_SECONDS, assumption: `; assumes sessions end within ${ASSUMED_SESSION_SECONDS} s: declare ${SESSION_SECONDS_ANNOTATION}` };
  return { declared, serving: Math.min(declared, MAX_SERVING_SECONDS), assumption: '' };
}

/** The seconds a preStop hook waits, when it says: the sleep action, or `sleep N` in an exec command. */
function waitSeconds(preStop: any): number | undefined {
  if (typeof preStop?.sleep?.seconds === 'number') return preStop.sleep.seconds;
  const command = Array.isArray(preStop?.exec?.command) ? preStop.exec.command.join(' ') : '';
  const slept = /\bsleep\s+(\d+)\b/.exec(command);
  return slept ? Number(slept[1]) : undefined;
}

/** The longest wait among the containers' preStop hooks: what the grace period must cover. */
function longestPreStopWait(containers: readonly ContainerRef[]): number | undefined {
  const known = containers.map(({ container }) => waitSeconds(container?.lifecycle?.preStop)).filter((seconds) => seconds !== undefined);
  return known.length ? greatest(known) : undefined;
}

/**
 * The containers that hold sessions: those that declare a port, or all when none does. Each gets SIGTERM once its own
 * preStop ends, so a sidecar's wait (a log shipper's `sleep 10`) keeps no session of the app beside it.
 */
function sessionHolders(containers: readonly ContainerRef[]): ContainerRef[] {
  const serving = containers.filter(({ container }) => Array.isArray(container?.ports) && container.ports.length > 0);
  return serving.length ? serving : [...containers];
}

function missingPieces(workload: Resource, needsPdb: boolean, length: SessionLength, pdb: NewPdb | undefined): Piece[] {
  const template = podTemplateOf(workload)!;
  const pieces: Piece[] = [];
  const { serving, assumption } = length;
  if (needsPdb) {
    pieces.push({
      missing: 'a PodDisruptionBudget',
      fix: pdb ? addPdbFix(workload, pdb) : undefined,
    });
  }
  const containers = containersOf(workload);
  // Sessions get `serving` seconds out of the Service, in the preStop wait or in the app's own drain after SIGTERM, then time to stop.
  const needed = Math.max(serving, longestPreStopWait(containers) ?? 0) + SHUTDOWN_SECONDS;
  const grace = template.spec.terminationGracePeriodSeconds;
  // Written as no integer ("120"), the API server rejects the pod: the fix writes a number, never less than meant.
  const refusedGrace = writtenNotInteger(grace);
  const graceSeconds = typeof grace === 'number' ? grace : (quotedDigits(grace) ?? SHUTDOWN_SECONDS);
  const graceTooShort = refusedGrace || graceSeconds < needed;
  const graceWanted = Math.max(needed, graceSeconds);
  const lengthenGrace = graceTooShort ? setField(workload, [...template.path, 'spec', 'terminationGracePeriodSeconds'], graceWanted) : [];
  const holders = sessionHolders(containers);
  const withoutPreStop = holders.filter(({ container }) => !container?.lifecycle?.preStop);
  // Hooks that say how long they wait and wait less than a session lasts (a hook that does not say is the app's own drain).
  const short = holders.map((ref) => ({ ref, seconds: waitSeconds(ref.container?.lifecycle?.preStop) })).filter(({ seconds }) => seconds !== undefined && seconds < serving);
  const keepServing = `Keep serving sessions ${serving} s after leaving the Service (preStop sleep, Kubernetes 1.30+${graceTooShort ? `; terminationGracePeriodSeconds: ${graceWanted}` : ''}${assumption})`;
  const on = (refs: readonly { name: string }[]) => (refs.length < containers.length ? ` on ${inWords(refs.map((ref) => ref.name))}` : '');
  // Both gaps at once: reported one at a time, the fix of the first brought the second, and --fix took it back.
  const gaps = [
    ...(withoutPreStop.length > 0 ? [`a preStop hook${on(withoutPreStop)}`] : []),
    ...(length.declared !== undefined && short.length > 0 ? [`a preStop hook that outlasts a session${on(short.map(({ ref }) => ref))} (it waits ${Math.min(...short.map(({ seconds }) => seconds!))} s, sessions last ${length.declared} s)`] : []),
  ];
  if (gaps.length > 0) {
    const lengthened = length.declared === undefined ? [] : short.map(({ ref }) => ref);
    // A wait in a command (`sh -c "sleep 10"`) is the team's to lengthen: no fix can end this gap then.
    // The API server refuses a sleep longer than the grace period, so the fix lengthens both: applied alone (an editor's quick fix), it leaves a pod that is accepted.
    const fixable = lengthened.every((ref) => typeof ref.container?.lifecycle?.preStop?.sleep?.seconds === 'number') && lengthenGrace !== undefined;
    const sleeps = [...withoutPreStop, ...lengthened].flatMap(({ path }) => setField(workload, [...path, 'lifecycle', 'preStop', 'sleep', 'seconds'], serving) ?? []);
    const edits = [...sleeps, ...(lengthenGrace ?? [])];
    // One fix for both, on the first: each gap is said, and the fix ends them together.
    gaps.forEach((missing, i) => pieces.push({ missing, fix: i === 0 && fixable ? { title: keepServing, edits } : undefined }));
  }
  if (graceTooShort) {
    pieces.push({
      missing: refusedGrace
        ? `terminationGracePeriodSeconds of at least ${needed} s written as a number (now ${shownValue(grace)}, no integer: the API server rejects the pod)`
        : `terminationGracePeriodSeconds of at least ${needed} s (now ${typeof grace === 'number' ? grace : `${SHUTDOWN_SECONDS}, the default`})`,
      fix: { title: `Give sessions ${serving} s and the app ${SHUTDOWN_SECONDS} s to stop (terminationGracePeriodSeconds: ${graceWanted}${assumption})`, edits: lengthenGrace ?? [] },
    });
  }
  // Sessions the autoscaler's grace covers need no more than the grace period; longer ones, or ones of unknown length, need the node kept.
  const outlastsAutoscaler = length.declared === undefined || length.declared > AUTOSCALER_GRACE_SECONDS;
  if (outlastsAutoscaler && template.annotations[SAFE_TO_EVICT] !== 'false') {
    const why =
      length.declared === undefined
        ? `sessions of unknown length may outlast the ${AUTOSCALER_GRACE_SECONDS} s the cluster autoscaler grants`
        : `sessions last ${length.declared} s, the cluster autoscaler grants ${AUTOSCALER_GRACE_SECONDS} s (--max-graceful-termination-sec) whatever the grace period`;
    pieces.push({
      missing: `the pod annotation ${SAFE_TO_EVICT}: "false" (${why})`,
      fix: { title: `Keep the cluster autoscaler from evicting these pods (${SAFE_TO_EVICT}: "false": ${why})`, edits: setField(workload, [...template.path, 'metadata', 'annotations', SAFE_TO_EVICT], 'false') ?? [] },
    });
  }
  return pieces;
}

/** `a, b and c`. */
function inWords(items: string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/**
 * One preferred fix, so an editor's auto-fix can act; the next piece becomes preferred once it is
 * applied. Sessions that outlast the autoscaler's grant are saved only by the annotation, so it goes first.
 */
function preferredIndex(pieces: Piece[], length: SessionLength): number {
  const annotation = pieces.findIndex((p) => p.missing.startsWith(`the pod annotation ${SAFE_TO_EVICT}`));
  return length.declared !== undefined && length.declared > AUTOSCALER_GRACE_SECONDS && annotation >= 0 ? annotation : pieces.findIndex((p) => p.fix);
}

export const sessionsLostOnEviction: Rule = {
  meta: {
    id: 'sessions-lost-on-eviction',
    severity: 'warning',
    scenario: 'voluntary-disruption',
    title: 'In-memory sessions die with every evicted pod',
    description: `A workload that keeps user sessions in its pods (declared with \`kube-resilience/sessions: "in-memory"\`, or fronted by a Service with \`sessionAffinity: ClientIP\`) loses every session on a pod when a node drain or the cluster autoscaler evicts it. How long a session lasts (a call, a websocket room, a login) is declared with \`${SESSION_SECONDS_ANNOTATION}\`; without it the rule assumes ${ASSUMED_SESSION_SECONDS} s and says so. Four things soften the loss, and the rule asks for each one missing: a PodDisruptionBudget (one pod at a time; asked for only with 2 or more replicas, since with one it protects nothing); a preStop hook that keeps a leaving pod serving its sessions for their length (at most ${MAX_SERVING_SECONDS} s) after it is out of its Service, so no new session arrives and the running ones end (on each container that serves: one that declares a port, or every one when none does, since each gets SIGTERM when its own hook ends); a grace period covering that wait plus ${SHUTDOWN_SECONDS} s to stop; and, when sessions outlast the ${AUTOSCALER_GRACE_SECONDS} s the cluster autoscaler grants an evicted pod (its \`--max-graceful-termination-sec\`, whatever the grace period) or their length is unknown, the pod annotation \`${SAFE_TO_EVICT}: "false"\`, so the autoscaler does not pick these nodes for scale-down. Declaring \`kube-resilience/sessions: "external"\` states that sessions live in a shared store and silences the ClientIP trigger.`,
    fix: `One fix per missing piece: appends a PDB (\`maxUnavailable: 1\`, the workload's selector); adds \`lifecycle.preStop.sleep.seconds\` of the session length (the sleep action of Kubernetes 1.30+, which needs no shell in the image) and, where the grace period does not cover that wait plus ${SHUTDOWN_SECONDS} s, sets it as the next fix does (the API server refuses a sleep longer than the grace period); sets \`terminationGracePeriodSeconds\` to that wait plus ${SHUTDOWN_SECONDS} s; adds the pod annotation \`${SAFE_TO_EVICT}: "false"\`, the preferred fix when sessions outlast the autoscaler's ${AUTOSCALER_GRACE_SECONDS} s.`,
    example: ordersDeployment('    kube-resilience/sessions: in-memory\n    kube-resilience/session-seconds: "3600"\n'),
  },
  check({ resources, inventory, report }) {
    for (const workload of resources) {
      if (!KINDS.includes(workload.kind) || ownedByAnother(workload) || isHelmHook(workload) || !podTemplateOf(workload)) continue;
      const sessions = declaredFacts(workload).sessions;
      const sticky = sessions === 'external' ? [] : inventory.servicesFronting(workload).filter((s) => s.object?.spec?.sessionAffinity === 'ClientIP');
      if (sessions !== 'in-memory' && sticky.length === 0) continue;
      // A budget of one pod at a time protects nothing when there is only one pod.
      const needsPdb = inventory.effectiveReplicas(workload).value >= 2 && inventory.pdbsSelectingAnyPodOf(workload).length === 0;
      const length = sessionLength(workload);
      const pieces = missingPieces(workload, needsPdb, length, needsPdb ? newPdbOf(workload, inventory) : undefined);
      if (pieces.length === 0) continue;
      const declared = writtenAnnotations(workload).filter((a) => a.key === SESSIONS_ANNOTATION).pop();
      const why = sessions === 'in-memory' ? `keeps sessions in memory (${SESSIONS_ANNOTATION}: in-memory)` : `is fronted by ${sticky.map(describeResource).join(', ')} with sessionAffinity ClientIP`;
      const lasting = length.declared !== undefined ? ` of up to ${length.declared} s` : '';
      const preferred = preferredIndex(pieces, length);
      report({
        resource: workload,
        path: sessions === 'in-memory' && declared ? declared.path : [],
        message: `${describeResource(workload)}: a drain or scale-down loses every user session on its pods. It ${why} and lacks ${inWords(pieces.map((p) => p.missing))}: a node drain or an autoscaler scale-down kills its pods on short notice, and every session${lasting} on them is lost.`,
        fixes: pieces.flatMap((p, index) => (p.fix ? [{ ...p.fix, preferred: index === preferred }] : [])),
        related: sticky.map((service) => ({ resource: service, path: ['spec', 'sessionAffinity'], message: 'pins each client to one pod' })),
      });
    }
  },
};
