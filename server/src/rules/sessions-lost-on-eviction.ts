import type { Fix } from '../fixes/edit';
import { appendDocument, setField } from '../fixes/yaml-edit';
import { ownedByAnother } from '../inventory/inventory';
import { declaredFacts, SESSIONS_ANNOTATION, writtenAnnotations } from '../manifest/declared';
import type { Resource } from '../manifest/parse';
import { containersOf, describeResource, podTemplateOf } from '../manifest/workload';
import { ordersDeployment } from './example-disruption';
import { pdbFor } from './pdb-missing';
import type { Rule } from './types';

export const SAFE_TO_EVICT = 'cluster-autoscaler.kubernetes.io/safe-to-evict';
/** Kubernetes' default grace period; the rule wants more than this. */
const DEFAULT_GRACE_SECONDS = 30;
/** Time for the endpoints controller and kube-proxy to stop sending new requests before the app is told to stop. */
const PRESTOP_SLEEP_SECONDS = 10;
/** Time for the sessions on a pod to finish or hand over once no new ones arrive. */
const SESSION_DRAIN_SECONDS = 60;

const KINDS = ['Deployment', 'StatefulSet', 'ReplicaSet', 'ReplicationController', 'Pod'];

interface Piece {
  missing: string;
  fix: Fix;
}

function preStopSleepSeconds(resource: Resource): number | undefined {
  const sleeps = containersOf(resource).map(({ container }) => container?.lifecycle?.preStop?.sleep?.seconds).filter((s): s is number => typeof s === 'number');
  return sleeps.length ? Math.max(...sleeps) : undefined;
}

function missingPieces(workload: Resource, needsPdb: boolean): Piece[] {
  const template = podTemplateOf(workload)!;
  const pieces: Piece[] = [];
  if (needsPdb) {
    pieces.push({
      missing: 'a PodDisruptionBudget',
      fix: { title: `Add a PodDisruptionBudget ${workload.name ?? 'workload'}-pdb (maxUnavailable: 1)`, preferred: true, edits: appendDocument(workload, pdbFor(workload)) ?? [] },
    });
  }
  const containers = containersOf(workload);
  const withoutPreStop = containers.filter(({ container }) => !container?.lifecycle?.preStop);
  if (containers.length > 0 && withoutPreStop.length === containers.length) {
    pieces.push({
      missing: 'a preStop hook',
      fix: {
        title: `Wait ${PRESTOP_SLEEP_SECONDS} s before stopping (preStop sleep, Kubernetes 1.30+)`,
        preferred: true,
        edits: withoutPreStop.flatMap(({ path }) => setField(workload, [...path, 'lifecycle', 'preStop', 'sleep', 'seconds'], PRESTOP_SLEEP_SECONDS) ?? []),
      },
    });
  }
  const grace = template.spec.terminationGracePeriodSeconds;
  if (!(typeof grace === 'number' && grace > DEFAULT_GRACE_SECONDS)) {
    const seconds = (preStopSleepSeconds(workload) ?? PRESTOP_SLEEP_SECONDS) + SESSION_DRAIN_SECONDS;
    pieces.push({
      missing: `terminationGracePeriodSeconds above ${DEFAULT_GRACE_SECONDS} (now ${typeof grace === 'number' ? grace : `${DEFAULT_GRACE_SECONDS}, the default`})`,
      fix: { title: `Give sessions ${seconds} s to end (terminationGracePeriodSeconds: ${seconds})`, preferred: true, edits: setField(workload, [...template.path, 'spec', 'terminationGracePeriodSeconds'], seconds) ?? [] },
    });
  }
  if (template.annotations[SAFE_TO_EVICT] !== 'false') {
    pieces.push({
      missing: `the pod annotation ${SAFE_TO_EVICT}: "false"`,
      fix: { title: 'Keep the cluster autoscaler from evicting these pods', preferred: true, edits: setField(workload, [...template.path, 'metadata', 'annotations', SAFE_TO_EVICT], 'false') ?? [] },
    });
  }
  return pieces;
}

/** `a, b and c`. */
function inWords(items: string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

export const sessionsLostOnEviction: Rule = {
  meta: {
    id: 'sessions-lost-on-eviction',
    severity: 'warning',
    scenario: 'voluntary-disruption',
    title: 'In-memory sessions die with every evicted pod',
    description:
      'A workload that keeps user sessions in its pods (declared with `kube-resilience/sessions: "in-memory"`, or fronted by a Service with `sessionAffinity: ClientIP`) loses every session on a pod when a node drain or the cluster autoscaler evicts it. Four things soften that, and the rule asks for each one missing: a PodDisruptionBudget (one pod at a time; asked for only with 2 or more replicas, since with one it protects nothing), a preStop hook (new requests stop arriving before the app is told to stop), a grace period above the default 30 s (running sessions get time to end) and the pod annotation `cluster-autoscaler.kubernetes.io/safe-to-evict: "false"` (the autoscaler does not pick these nodes for scale-down). Declaring `kube-resilience/sessions: "external"` states that sessions live in a shared store and silences the ClientIP trigger.',
    fix: 'One fix per missing piece: appends a PDB (`maxUnavailable: 1`, the workload\'s selector); adds `lifecycle.preStop.sleep.seconds: 10` to each container (the sleep action of Kubernetes 1.30+, which needs no shell in the image); sets `terminationGracePeriodSeconds` to the preStop sleep plus 60 s; adds the pod annotation `cluster-autoscaler.kubernetes.io/safe-to-evict: "false"`.',
    example: ordersDeployment('    kube-resilience/sessions: in-memory\n'),
  },
  check({ resources, inventory, report }) {
    for (const workload of resources) {
      if (!KINDS.includes(workload.kind) || ownedByAnother(workload) || !podTemplateOf(workload)) continue;
      const sessions = declaredFacts(workload).sessions;
      const sticky = sessions === 'external' ? [] : inventory.servicesFronting(workload).filter((s) => s.object?.spec?.sessionAffinity === 'ClientIP');
      if (sessions !== 'in-memory' && sticky.length === 0) continue;
      // A budget of one pod at a time protects nothing when there is only one pod.
      const needsPdb = inventory.effectiveReplicas(workload).value >= 2 && inventory.pdbsSelecting(workload).length === 0;
      const pieces = missingPieces(workload, needsPdb);
      if (pieces.length === 0) continue;
      const declared = writtenAnnotations(workload).filter((a) => a.key === SESSIONS_ANNOTATION).pop();
      const why = sessions === 'in-memory' ? `keeps sessions in memory (${SESSIONS_ANNOTATION}: in-memory)` : `is fronted by ${sticky.map(describeResource).join(', ')} with sessionAffinity ClientIP`;
      report({
        resource: workload,
        path: sessions === 'in-memory' && declared ? declared.path : [],
        message: `${describeResource(workload)} ${why} and lacks ${inWords(pieces.map((p) => p.missing))}: a node drain or an autoscaler scale-down kills its pods on short notice, and every user session on them is lost.`,
        // One preferred fix, so an editor's auto-fix can act; the next piece becomes preferred once it is applied.
        fixes: pieces.map((p, index) => ({ ...p.fix, preferred: index === 0 })),
        related: sticky.map((service) => ({ resource: service, path: ['spec', 'sessionAffinity'], message: 'pins each client to one pod' })),
      });
    }
  },
};
