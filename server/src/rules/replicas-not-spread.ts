import { describeEveryPod, describeRunning, ownedByAnother, type EffectiveReplicas } from '../inventory/inventory';
import { isClusterAddon } from '../manifest/addon';
import { countSetBy } from './count-set-by';
import { nodePin } from '../manifest/node-pin';
import type { Resource } from '../manifest/parse';
import type { Path } from '../manifest/path';
import { describeSelector, type LabelSelector } from '../manifest/selector';
import { claimsHostPorts, type CoLocation, heldTogetherBy, idleSpreadConstraints, otherNamespacesLookedAt, type NamespacesLookedAt, spreadsAcrossFailureDomains, strayFailureDomainSelectors } from '../manifest/spread';
import { describeResource, isScalable, podTemplateOf } from '../manifest/workload';
import { ordersDeployment } from './example-disruption';
import { hostnameSpreadEdits } from './hostname-spread';
import { idleSpreadConstraintReport, LOWERED_SKEW_UNSAFE } from './idle-spread-constraint';
import type { Rule } from './types';

export const replicasNotSpread: Rule = {
  meta: {
    id: 'replicas-not-spread',
    severity: 'warning',
    scenario: 'involuntary-disruption',
    title: 'Replicas may all land on one node',
    description:
      'Several replicas protect against a node failure only if they run on different nodes. Without a topology spread constraint or a pod anti-affinity term on `kubernetes.io/hostname` (or a zone or region) that selects the pod\'s own labels in its own namespace (an anti-affinity term\'s `namespaces` or `namespaceSelector` can point elsewhere), only the scheduler\'s weak default scoring keeps them apart (pods claiming a host port are the exception: two never share a node), and after a drain, a scale-up on a fresh node or a tight cluster all replicas can share one node: when it dies, the whole workload goes with it. A required pod affinity to its own pods on `kubernetes.io/hostname` puts every replica on the first one\'s node whatever spreads them (no fix is offered: make it preferred, or remove it if the pods need not share a node); on a zone or region, only spreading over narrower domains counts. Pods pinned to one node are left to `pinned-to-node`. A spread constraint counts only with a `maxSkew` below the effective replica count: at `maxSkew` ≥ replicas the scheduler may put every replica on one node (a skew of replicas − 0), whether `whenUnsatisfiable` is `DoNotSchedule` or `ScheduleAnyway`, and `minDomains` changes nothing (it only counts the global minimum as 0). A `maxSkew` the API server refuses (unset, 0, negative, no integer, digits in quotes) spreads nothing either: it rejects the whole workload, which is reported instead, at the value.',
    fix: 'Adds a `topologySpreadConstraints` entry: `maxSkew: 1`, `topologyKey: kubernetes.io/hostname`, `whenUnsatisfiable: ScheduleAnyway`, and the workload\'s own pod selector; the API server takes one constraint per `topologyKey` and `whenUnsatisfiable`, so one on the hostname with `ScheduleAnyway` already there (selecting other pods, or none) is pointed at the pods\' own labels with `maxSkew: 1` instead. When a constraint on the pods\' own labels is there but its `maxSkew` is too loose or refused, sets that `maxSkew` instead: to 1, or to the number digits in quotes stand for when it spreads the replicas.',
    unsafeFixes: LOWERED_SKEW_UNSAFE,
    example: ordersDeployment(),
  },
  check({ resources, inventory, report }) {
    for (const workload of resources) {
      if (!isScalable(workload) || ownedByAnother(workload) || isClusterAddon(workload)) continue;
      const template = podTemplateOf(workload);
      if (!template) continue;
      const replicas = inventory.effectiveReplicas(workload);
      // A pod pinned to one node cannot be spread: pinned-to-node says so.
      if (replicas.value < 2 || spreadsAcrossFailureDomains(template.spec, template.labels, workload.namespace, replicas.value) || claimsHostPorts(template.spec) || nodePin(template.spec)) continue;
      const held = heldTogetherBy(template.spec, template.labels, workload.namespace);
      const path = replicas.source === 'spec' ? ['spec', 'replicas'] : [];
      const related = [
        ...(held ? [affinityLocation(workload, template.path, held)] : []),
        ...countSetBy(replicas),
      ];
      if (held?.domain === 'node') {
        report({ resource: workload, path, message: mustShareNode(workload, replicas, held), related });
        continue;
      }
      const [idle] = idleSpreadConstraints(template.spec, template.labels, workload.namespace, replicas.value);
      if (idle) {
        report(idleSpreadConstraintReport(workload, template.path, replicas, idle, related));
        continue;
      }
      const stray = strayFailureDomainSelectors(template.spec, template.labels);
      const elsewhere = otherNamespacesLookedAt(template.spec, template.labels, workload.namespace);
      const why = held
        ? `${requiredAffinity(held)}, so they all run in one ${held.domain}, and nothing spreads them across its nodes`
        : stray.length
          ? strayTerms(stray)
          : elsewhere.names.length || elsewhere.selectors.length
            ? `Its anti-affinity looks for its pods only in ${describeNamespaces(elsewhere)}, not in ${workload.namespace} where they run`
            : 'Nothing spreads them across nodes';
      report({
        resource: workload,
        path,
        message: `${describeResource(workload)}: ${describeEveryPod(replicas.value)} may run on one node and go down with it. It runs ${describeRunning(replicas)}. ${why}: when that node dies the workload is down until they are rescheduled.`,
        fixes: () => [
          {
            title: 'Spread the pods across nodes (topologySpreadConstraints, ScheduleAnyway)',
            preferred: true,
            edits: hostnameSpreadEdits(workload, template) ?? [],
          },
        ],
        related,
      });
    }
  },
};

/** Where the affinity that holds the pods together is written. */
function affinityLocation(workload: Resource, templatePath: Path, { index, domain }: CoLocation): { resource: Resource; path: Path; message: string } {
  const path = [...templatePath, 'spec', 'affinity', 'podAffinity', 'requiredDuringSchedulingIgnoredDuringExecution', index, 'topologyKey'];
  return { resource: workload, path, message: `the required pod affinity that holds every pod ${domain === 'node' ? 'on one node' : `in one ${domain}`}` };
}

/** Held on one node by its own affinity: no spreading helps, and dropping the affinity may change what the application does, so no fix. */
function mustShareNode(workload: Resource, replicas: EffectiveReplicas, held: CoLocation): string {
  return `${describeResource(workload)}: ${describeEveryPod(replicas.value)} must run on one node and go down with it. It runs ${describeRunning(replicas)}. ${requiredAffinity(held)}: the scheduler puts each pod on the node where the others run, and no spread constraint or anti-affinity can place one elsewhere. When that node dies the workload is down until they are rescheduled; if the pods need not share a node, make the affinity preferred or remove it.`;
}

/** "Its required pod affinity on kubernetes.io/hostname selects its own pods (app=web)". */
function requiredAffinity({ term }: CoLocation): string {
  return `Its required pod affinity on ${String(term.topologyKey)} selects its own pods (${describeSelector(term.labelSelector)})`;
}

/** Why spread terms that select other pods, or none (no labelSelector), spread nothing. */
function strayTerms(selectors: readonly (LabelSelector | undefined)[]): string {
  const named = selectors.filter((s): s is LabelSelector => s !== undefined);
  const unnamed = selectors.length - named.length;
  const none = unnamed === 1 ? 'a term with no labelSelector, which counts no pods' : `${unnamed} terms with no labelSelector, which count no pods`;
  if (!named.length) return `Its spread ${unnamed === 1 ? 'term has' : 'terms have'} no labelSelector, so ${unnamed === 1 ? 'it counts' : 'they count'} no pods`;
  return `Its spread terms select ${named.map(describeSelector).join(' and ')}, which its own pods do not carry${unnamed ? `, and it has ${none}` : ''}`;
}

/** "namespace cache, shop and namespaces matching team=shop". */
function describeNamespaces({ names, selectors }: NamespacesLookedAt): string {
  const named = names.length ? [`namespace ${names.join(', ')}`] : [];
  return [...named, ...selectors.map((selector) => `namespaces matching ${describeSelector(selector)}`)].join(' and ');
}
