import type { Inventory } from '../inventory/inventory';
import type { Resource } from '../manifest/parse';
import { withoutClusterSetLabels } from '../manifest/controller-labels';
import { selectsNothingAsV1beta1 } from '../manifest/pdb';
import { describeSelector, isEmptySelector, selectorFault, selectorMatches, type LabelSelector } from '../manifest/selector';
import { ownedByAnother } from '../inventory/inventory';
import { describeResource, isWorkload, podTemplateOf } from '../manifest/workload';
import { documents, examplePdb, ordersDeployment } from './example-disruption';
import type { Rule } from './types';

/** A missing, malformed, or empty policy/v1beta1 selector selects nothing whatever else is known. */
function brokenSelector(pdb: Resource, selector: unknown): string | undefined {
  if (selectsNothingAsV1beta1(pdb)) return 'has an empty selector, which policy/v1beta1 reads as no pod at all (policy/v1 reads it as every pod of the namespace)';
  if (selector === null || selector === undefined) return 'has no selector, so it selects no pods at all';
  if (typeof selector !== 'object' || Array.isArray(selector)) return 'has a malformed selector, which the API server rejects, so it selects no pods at all';
  const fault = selectorFault(selector);
  if (fault) return `has a selector the API server rejects (${fault}), so the PDB is never created and selects no pods at all`;
  return undefined;
}

/** Workloads in other namespaces whose pods the selector matches: a PDB guards its own namespace only. */
function selectedElsewhere(pdb: Resource, selector: LabelSelector, inventory: Inventory): Resource[] {
  return inventory.resources().filter((r) => r.namespace !== pdb.namespace && isWorkload(r) && !ownedByAnother(r) && selectorMatches(selector, podTemplateOf(r)?.labels));
}

function unmatchedSelector(pdb: Resource, written: LabelSelector, inventory: Inventory): string | undefined {
  if (inventory.customResourcesIn(pdb.namespace).length > 0) return undefined;
  // Which pods carry a pod-template-hash is the cluster's to say: the rest of the selector is what manifests answer.
  const selector = withoutClusterSetLabels(written);
  // Nothing left that manifests can answer: every pod would match, in every namespace.
  if (isEmptySelector(selector) && !isEmptySelector(written)) return undefined;
  if (inventory.podCarriersMatching(pdb.namespace, selector).length > 0) return undefined;
  // Asked only now: a PDB that selects pods does not depend on every other workload of its namespace.
  const known = inventory.podCarriersIn(pdb.namespace);
  const elsewhere = selectedElsewhere(pdb, selector, inventory);
  if (elsewhere.length) {
    const namespaces = [...new Set(elsewhere.map((w) => w.namespace))];
    return `selects ${describeSelector(written)}, which nothing known in namespace ${pdb.namespace} carries, while ${elsewhere.map(describeResource).join(', ')} in namespace ${namespaces.join(', ')} ${elsewhere.length === 1 ? 'does' : 'do'}: a PDB guards pods of its own namespace only, so its namespace is the mistake (move it to ${namespaces.join(' or ')})`;
  }
  if (known.length === 0) return undefined;
  const searched = inventory.hasCluster() ? 'the workspace and the live cluster' : 'the workspace';
  return `selects ${describeSelector(written)}, but no workload or pod known in namespace ${pdb.namespace} (${known.length} searched in ${searched}) carries those labels`;
}

export const pdbSelectsNothing: Rule = {
  meta: {
    id: 'pdb-selects-nothing',
    severity: 'hint',
    scenario: 'voluntary-disruption',
    title: 'PodDisruptionBudget selects no known pods',
    description:
      'A PodDisruptionBudget whose selector matches none of the workloads known in its namespace (the workspace\'s manifests and, when connected, the live cluster\'s workloads and pods) protects nothing: usually a label typo or a renamed app, so the workload it was meant for is drained without a budget. A missing or malformed selector, or an empty one in policy/v1beta1 (which reads it as no pod, where policy/v1 reads it as every pod of the namespace), is reported wherever the PDB is. When the labels it selects are carried by a workload in another namespace, the namespace is the mistake (a PDB only ever guards pods of its own namespace), and that is a warning. Otherwise the rule stays silent when nothing at all is known in that namespace, because a PDB shipped apart from its workload (another repository, a Helm release) is normal and there is then nothing to compare with; and when the namespace holds custom resources, since an operator (the Prometheus operator, a database operator) may create the selected pods from them (not KEDA\'s ScaledObjects, which create no pod).',
    example: documents(ordersDeployment(), examplePdb('  maxUnavailable: 1\n', 'orders-pdb', 'order')),
  },
  check({ resources, inventory, report }) {
    for (const pdb of resources) {
      if (pdb.kind !== 'PodDisruptionBudget') continue;
      const selector = pdb.object?.spec?.selector;
      const what = brokenSelector(pdb, selector) ?? unmatchedSelector(pdb, selector, inventory);
      if (!what) continue;
      const wrongNamespace = what.includes('its namespace is the mistake');
      report({
        resource: pdb,
        path: wrongNamespace && pdb.object?.metadata?.namespace !== undefined ? ['metadata', 'namespace'] : ['spec', 'selector'],
        // Not a guess: the workload it names runs without a budget.
        severity: wrongNamespace ? 'warning' : undefined,
        message: `${describeResource(pdb)} guards no pod: the workload it was meant for drains without a budget. It ${what}.`,
      });
    }
  },
};
