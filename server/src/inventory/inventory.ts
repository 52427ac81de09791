import { plural } from '../words';
import type { ManifestFile, Resource } from '../manifest/parse';
import { pdbSelector } from '../manifest/pdb';
import { asksForControllerLabel, getsControllerLabels, podLabelSets, podNamesSelected, podsSelected, withoutControllerLabels } from '../manifest/controller-labels';
import { mapSelectorMatches, matchableLabels, requiredLabel, selectorMatches, type LabelSelector, type Labels } from '../manifest/selector';
import { factOf } from '../manifest/facts';
import { runSteps, type Steps } from '../steps';
import { AUTOSCALER_KINDS, autoscalerBounds, autoscales, describeFloor, scaleTargetRefOf } from '../manifest/autoscaler';
import { groupOf, hpaScalingDisabled, isLongRunning, isScalable, podTemplateOf, WORKLOAD_KINDS, workloadSelector } from '../manifest/workload';
import { holdsReplicas, isScaledObject, pausedReplicaCount } from '../manifest/scaled-object';
import { groupBy } from '../grouped';
import { LabelIndex, type LabelPair } from './label-index';
import { ReadLog, type Reads } from './reads';

export interface EffectiveReplicas {
  value: number;
  /**
   * Where the number comes from: an autoscaler's floor (an HPA's minReplicas, a KEDA ScaledObject's minReplicaCount),
   * a paused ScaledObject's paused-replicas, spec.replicas, or the API default of 1.
   */
  source: 'hpa' | 'paused' | 'spec' | 'default';
  /** The autoscaler: an HPA or a ScaledObject. */
  hpa?: Resource;
  /** The ScaledObject whose paused-replicas holds it at value. */
  heldBy?: Resource;
}

/** The count as a message states it: `3 replicas`, `HPA minReplicas 2`, `KEDA minReplicaCount 3`, `1 replica (the default)`, `2 replicas (held by KEDA's paused-replicas)`. */
export function describeReplicas(replicas: EffectiveReplicas): string {
  if (replicas.hpa) return describeFloor(replicas.hpa, replicas.value);
  const noun = replicas.value === 1 ? 'replica' : 'replicas';
  if (replicas.heldBy) return `${replicas.value} ${noun} (held by KEDA's paused-replicas)`;
  return replicas.source === 'default' ? `${replicas.value} ${noun} (the default)` : `${replicas.value} ${noun}`;
}

/** What a workload runs, after "It runs": "at least 2 replicas (HPA minReplicas 2)" rather than "It runs HPA minReplicas 2". */
export function describeRunning(replicas: EffectiveReplicas): string {
  if (!replicas.hpa) return describeReplicas(replicas);
  return `at least ${plural(replicas.value, 'replica')} (${describeFloor(replicas.hpa, replicas.value)})`;
}

/** "both pods" for two, "all 3 pods" for more: what "every one of them" reads like in a message. */
export function describeEveryPod(count: number): string {
  return count === 2 ? 'both pods' : `all ${count} pods`;
}

/** What a workload runs of which a PDB selects some pods, as a message states it: `3 replicas`, `1 pod of 3 replicas`. */
export function describeSelectedReplicas(selected: number, replicas: EffectiveReplicas): string {
  return selected === replicas.value ? describeReplicas(replicas) : `${plural(selected, 'pod')} of ${describeRunning(replicas)}`;
}

/** The pods a PDB guards: the workloads it selects, and their expected pod count when every one of them has a scale. */
export interface ExpectedPods {
  /** `selected`: how many of the workload's pods the PDB selects, fewer than its replicas when it picks some out by name or index. */
  workloads: { workload: Resource; replicas: EffectiveReplicas; selected: number }[];
  /** undefined when a selected workload has no scale the disruption controller could read (a DaemonSet, a Job). */
  count: number | undefined;
  /**
   * How many of those pods the PDB selects (undefined with count): fewer than count when it picks some of a StatefulSet's
   * out (`statefulset.kubernetes.io/pod-name: db-0`), while the disruption controller counts maxUnavailable and
   * percentages against all of them.
   */
  selected: number | undefined;
}

function key(resource: Resource): string {
  return `${resource.kind}|${resource.namespace}|${resource.name ?? ''}`;
}

/** Whether two resources define one object: the same kind, namespace and name (two with `generateName` are two). */
export function sameObject(a: Resource, b: Resource): boolean {
  return a === b || (!!a.name && key(a) === key(b));
}

/**
 * Every resource the engine knows: files of the workspace (open documents replacing what is on
 * disk) and, beneath them, the live cluster. All cross-resource questions are answered here.
 */
export class Inventory {
  private readonly files = new Map<string, ManifestFile>();
  private clusterResources: Resource[] = [];
  /** Which groups of resources an analysis asked about, so that it is redone only when one of them changes. */
  private log = new ReadLog(groupsOf, () => this.resourceCount());
  private derived = nothingDerived();
  /** How many times each file was set or removed (see revisionOf). */
  private readonly revisions = new Map<string, number>();

  /**
   * Everything derived is dropped at once, as a new object: V8's Map.clear leaves the old table pointing to
   * its successor, and the young generation's collections follow that pointer from the dead table, so
   * cleared maps kept every earlier state's lists (and the file versions they hold) alive.
   */
  private changed(): void {
    this.derived = nothingDerived();
  }

  setFile(file: ManifestFile): void {
    runSteps(this.setFileInSteps(file));
  }

  /** setFile in steps, for whole-file work that lets requests through (a Fix all round replaces thousands of resources). */
  *setFileInSteps(file: ManifestFile): Steps<void> {
    yield* this.log.replacedInSteps(this.files.get(file.uri)?.resources ?? [], file.resources);
    this.files.set(file.uri, file);
    this.revised(file.uri);
    this.changed();
  }

  /** How many resources the files and the cluster hold. */
  private resourceCount(): number {
    let count = this.clusterResources.length;
    for (const file of this.files.values()) count += file.resources.length;
    return count;
  }

  removeFile(uri: string): void {
    // Counted even when nothing is held: a reader that parsed a file meanwhile must not put back what is now gone.
    this.revised(uri);
    const file = this.files.get(uri);
    if (!file) return;
    this.log.replaced(file.resources, []);
    this.files.delete(uri);
    this.changed();
  }

  /**
   * How many times the file under `uri` was set or removed: one who read a file and parsed it meanwhile tells by it
   * whether a newer text (or its removal) came in between.
   */
  revisionOf(uri: string): number {
    return this.revisions.get(uri) ?? 0;
  }

  private revised(uri: string): void {
    this.revisions.set(uri, this.revisionOf(uri) + 1);
  }

  /** Runs `work` and returns with its result which groups of resources it asked about. */
  recordReads<T>(work: () => T): { result: T; reads: Reads } {
    return this.log.record(work);
  }

  /** Whether every group of resources those reads asked about is still as it was then. */
  unchangedSince(reads: Reads): boolean {
    return this.log.unchangedSince(reads);
  }

  /**
   * An inventory of the same files and cluster, to try edits on without changing what others see. Its read
   * log goes on from this one's, so what an analysis of this inventory recorded still holds on the copy.
   */
  scratch(): Inventory {
    const copy = new Inventory();
    for (const file of this.files.values()) copy.files.set(file.uri, file);
    copy.clusterResources = this.clusterResources;
    copy.log = this.log.copy();
    return copy;
  }

  getFile(uri: string): ManifestFile | undefined {
    return this.files.get(uri);
  }

  allFiles(): ManifestFile[] {
    return [...this.files.values()];
  }

  /** Resources read from a live cluster or a snapshot; a manifest with the same kind, namespace and name wins over them. */
  setCluster(resources: Resource[]): void {
    this.clusterResources = resources;
    this.log.everythingChanged();
    this.changed();
  }

  hasCluster(): boolean {
    this.log.read('*');
    return this.clusterResources.length > 0;
  }

  /** Every resource, grouped by namespace (cluster-scoped ones under ''). */
  private byNamespace(): Map<string, Resource[]> {
    if (this.derived.byNamespace) return this.derived.byNamespace;
    const seen = new Set<string>();
    const index = new Map<string, Resource[]>();
    const add = (resource: Resource) => {
      const list = index.get(resource.namespace);
      if (list) list.push(resource);
      else index.set(resource.namespace, [resource]);
    };
    // Which identities the files define matters only for the cluster's resources they shadow.
    const shadowing = this.clusterResources.length > 0;
    for (const file of this.files.values()) {
      for (const resource of file.resources) {
        if (shadowing) seen.add(key(resource));
        add(resource);
      }
    }
    for (const resource of this.clusterResources) if (!seen.has(key(resource))) add(resource);
    this.derived.byNamespace = index;
    return index;
  }

  /**
   * The cluster's own objects that a person manages: not shadowed by a manifest of the workspace
   * (the manifest speaks for it) and not created by a controller (a Deployment's ReplicaSets and
   * pods, mirror pods), so a finding is reported once, on the object to change.
   */
  clusterManaged(): Resource[] {
    this.log.read('*');
    const shadowed = new Set<string>();
    for (const file of this.files.values()) for (const resource of file.resources) shadowed.add(key(resource));
    return this.clusterResources.filter((r) => !shadowed.has(key(r)) && !ownedByAnother(r));
  }

  resources(): Resource[] {
    this.log.read('*');
    return [...this.byNamespace().values()].flat();
  }

  inNamespace(namespace: string, kind?: string): Resource[] {
    this.log.read(kind ? `${namespace}|${kind}` : `${namespace}|*`);
    if (!kind) return this.byNamespace().get(namespace) ?? [];
    return this.ofKindIn(namespace, kind).slice();
  }

  /**
   * The resources of the namespace named `name`, of any kind. Read as that name's group: only a resource that takes
   * or leaves the name moves it (typing in another PDB of the namespace leaves a question about `web-pdb` as it was).
   */
  namedIn(namespace: string, name: string): Resource[] {
    this.log.read(nameGroup(namespace, name));
    let byName = this.derived.byNameInNamespace.get(namespace);
    if (!byName) this.derived.byNameInNamespace.set(namespace, (byName = groupBy((this.byNamespace().get(namespace) ?? []).filter((r) => r.name !== null), (r) => r.name!)));
    return (byName.get(name) ?? []).slice();
  }

  /** The index's own list (not to be changed), its read recorded by the caller. */
  private ofKindIn(namespace: string, kind: string): readonly Resource[] {
    // Rules ask this for every workload: answered from an index rather than a scan of the namespace,
    // built for a namespace when first asked about it (after a keystroke, the edited resource's only).
    let byKind = this.derived.byKindInNamespace.get(namespace);
    if (!byKind) {
      byKind = new Map();
      for (const resource of this.byNamespace().get(namespace) ?? []) {
        const same = byKind.get(resource.kind);
        if (same) same.push(resource);
        else byKind.set(resource.kind, [resource]);
      }
      this.derived.byKindInNamespace.set(namespace, byKind);
    }
    return byKind.get(kind) ?? [];
  }

  ofKind(kind: string): Resource[] {
    this.log.read(`*|${kind}`);
    return [...this.byNamespace().values()].flat().filter((r) => r.kind === kind);
  }

  /** PodDisruptionBudgets whose selector matches the workload's pod labels: those over every pod of it. */
  pdbsSelecting(workload: Resource): Resource[] {
    const labels = podTemplateOf(workload)?.labels;
    const question = labelQuestion('pdbs', workload.namespace, labels);
    return this.answer('pdbs', workload, question.groups, () => {
      if (!labels) return [];
      const pdbs = this.labelIndex('pdbs', workload.namespace);
      return nearestDefinitions(pdbs.candidates(question.labels).filter((pdb) => selectorMatches(pdbSelector(pdb) as LabelSelector | undefined, labels)), workload);
    });
  }

  /**
   * The answer to a question about one resource, computed once per state of the inventory (rules ask
   * the same of every workload). The groups it reads are recorded whether it is computed or not.
   */
  private answer(question: string, resource: Resource, groups: readonly string[], compute: () => Resource[]): Resource[] {
    for (const group of groups) this.log.read(group);
    const key = resource.object;
    if (!key || typeof key !== 'object') return compute();
    let known = this.derived.answers.get(question);
    if (!known) this.derived.answers.set(question, (known = new WeakMap()));
    // Kept by the parsed object, which an unchanged document keeps from one parse to the next; but one text in
    // two files is one object too (a folder per environment), and each answer is of the nearest definitions to its file.
    const uri = resource.file?.uri;
    const kept = known.get(key);
    if (kept && kept.uri === uri) return kept.result.slice();
    const result = compute();
    if (!kept) known.set(key, { uri, result });
    return result.slice();
  }

  /**
   * The PDBs over some pod of the workload: those over every one (pdbsSelecting), and those that pick some out by the
   * labels its controller gives them (`statefulset.kubernetes.io/pod-name: db-0`).
   */
  pdbsSelectingAnyPodOf(workload: Resource): Resource[] {
    const overEvery = this.pdbsSelecting(workload);
    // Other pods carry their template's labels only, which pdbsSelecting asked about; reading the PDBs by pod names
    // too would analyse every Deployment again when one of those changes.
    if (!getsControllerLabels(workload)) return overEvery;
    const picking = this.pdbsByControllerLabels(workload.namespace).filter((pdb) => !overEvery.includes(pdb) && this.selectsSomePodOf(workload, [pdbSelector(pdb) as LabelSelector]));
    return picking.length ? nearestDefinitions([...overEvery, ...picking], workload) : overEvery;
  }

  /** The autoscalers that scale the workload: HorizontalPodAutoscalers, and KEDA ScaledObjects as the HPA KEDA makes of each (see autoscales). */
  hpasTargeting(workload: Resource): Resource[] {
    return this.answer('hpas', workload, autoscalerGroups(workload.namespace), () =>
      nearestDefinitions(
        AUTOSCALER_KINDS.flatMap((kind) => this.ofKindIn(workload.namespace, kind).filter((autoscaler) => autoscales(autoscaler, workload))),
        workload,
      ),
    );
  }

  /** The workload an autoscaler scales, when it is known (see autoscales). */
  scaleTargetOf(autoscaler: Resource): Resource | undefined {
    return this.namedBy(autoscaler).find((workload) => autoscales(autoscaler, workload));
  }

  /** The resources of the kind and name an autoscaler's scaleTargetRef gives, whether it can scale them or not. */
  namedBy(autoscaler: Resource): Resource[] {
    const ref = scaleTargetRefOf(autoscaler);
    if (!ref || typeof ref.kind !== 'string') return [];
    return nearestDefinitions(this.inNamespace(autoscaler.namespace, ref.kind).filter((r) => r.name === ref.name), autoscaler);
  }

  /** Services whose selector matches the workload's pod labels. */
  servicesFronting(workload: Resource): Resource[] {
    const labels = podTemplateOf(workload)?.labels;
    const question = labelQuestion('services', workload.namespace, labels);
    return this.answer('services', workload, question.groups, () => {
      if (!labels) return [];
      const services = this.labelIndex('services', workload.namespace);
      return nearestDefinitions(services.candidates(question.labels).filter((service) => mapSelectorMatches(service.object?.spec?.selector, labels)), workload);
    });
  }

  /** Workloads (with a pod template) whose pods the PDB's selector matches. */
  workloadsSelectedBy(pdb: Resource): Resource[] {
    const selector = pdbSelector(pdb);
    return this.answer('selected', pdb, carrierQuestion(pdb.namespace, selector).groups, () => nearestDefinitions(this.podCarriersMatching(pdb.namespace, selector).filter((r) => !ownedByAnother(r)), pdb));
  }

  /**
   * The namespace's pod carriers (those owned by a controller too) some pod of which the selector matches, by its
   * labels and those its controller gives it (see podLabelSetsOf).
   */
  podCarriersMatching(namespace: string, selector: unknown): Resource[] {
    const question = carrierQuestion(namespace, selector);
    for (const group of question.groups) this.log.read(group);
    const candidates = this.labelIndex('carriers', namespace).candidates(question.labels);
    if (question.byControllerLabels) return candidates.filter((r) => this.selectsSomePodOf(r, [selector as LabelSelector]));
    return candidates.filter((r) => selectorMatches(selector as LabelSelector, podTemplateOf(r)?.labels));
  }

  /**
   * A namespace's resources of one sort filed by labels, built once per state of the inventory. Building it
   * records no read: a question depends only on the groups of the labels it names (see questionGroups).
   */
  private labelIndex(name: LabelIndexName, namespace: string): LabelIndex<Resource> {
    const at = `${name}|${namespace}`;
    let index = this.derived.labelIndexes.get(at);
    if (!index) this.derived.labelIndexes.set(at, (index = new LabelIndex(this.namespaceList(name, namespace, LABEL_INDEXES[name].holds), LABEL_INDEXES[name].labelsOf)));
    return index;
  }

  /** The paused KEDA ScaledObjects that hold the workload at their paused-replicas count (see holdsReplicas). */
  heldBy(workload: Resource): Resource[] {
    return this.answer('held', workload, [`${workload.namespace}|ScaledObject`], () =>
      nearestDefinitions(
        this.ofKindIn(workload.namespace, 'ScaledObject').filter((scaledObject) => isScaledObject(scaledObject) && holdsReplicas(scaledObject, workload)),
        workload,
      ),
    );
  }

  /**
   * The autoscaler's floor when one targets the workload (see autoscalerBounds), else the count a paused ScaledObject
   * holds it at, else spec.replicas (default 1).
   */
  effectiveReplicas(workload: Resource): EffectiveReplicas {
    const targeting = this.hpasTargeting(workload)[0];
    // Scaled to zero under an HPA with a floor, it runs no pod: the autoscaler leaves it alone.
    const hpa = targeting && !hpaScalingDisabled(workload, targeting) ? targeting : undefined;
    if (hpa) return { value: autoscalerBounds(hpa).min, source: 'hpa', hpa };
    const heldBy = this.heldBy(workload)[0];
    const held = heldBy && pausedReplicaCount(heldBy);
    if (held !== undefined) return { value: held, source: 'paused', heldBy };
    const replicas = workload.object?.spec?.replicas;
    // A count the API server cannot decode ("3", 2.5) is none it runs; single-replica says so.
    if (isScalable(workload) && Number.isInteger(replicas)) return { value: replicas, source: 'spec' };
    return { value: 1, source: 'default' };
  }

  /** The workloads a PDB selects, the pod count the disruption controller expects for them, and how many of those it selects. */
  expectedPods(pdb: Resource): ExpectedPods {
    const selector = pdbSelector(pdb);
    const picksPods = asksForControllerLabel(selector);
    const workloads = this.workloadsSelectedBy(pdb).map((workload) => {
      const replicas = this.effectiveReplicas(workload);
      return { workload, replicas, selected: picksPods ? this.podsSelectedOf(workload, selector) : replicas.value };
    });
    const known = workloads.every(({ workload }) => isScalable(workload) || workload.kind === 'Pod');
    if (!known) return { workloads, count: undefined, selected: undefined };
    return { workloads, count: workloads.reduce((sum, w) => sum + w.replicas.value, 0), selected: workloads.reduce((sum, w) => sum + w.selected, 0) };
  }

  /** Everything in the namespace that carries pod labels: workloads with their templates, and pods read from a cluster. */
  podCarriersIn(namespace: string): Resource[] {
    for (const group of carrierGroups(namespace)) this.log.read(group);
    return this.namespaceList('carriers', namespace, isLongRunning);
  }

  /**
   * Custom resources in the namespace (monitoring.coreos.com, …): an operator may create pods from them that no manifest
   * shows. Not KEDA's ScaledObjects, which scale a workload and run no pod of their own.
   */
  customResourcesIn(namespace: string): Resource[] {
    this.log.read(`${namespace}|+custom`);
    return this.namespaceList('custom', namespace, (r) => isCustomResource(r) && !isScaledObject(r));
  }

  private namespaceList(name: string, namespace: string, keep: (resource: Resource) => boolean): Resource[] {
    const at = `${name}|${namespace}`;
    let list = this.derived.namespaceLists.get(at);
    if (!list) this.derived.namespaceLists.set(at, (list = (this.byNamespace().get(namespace) ?? []).filter(keep)));
    return list.slice();
  }

  /**
   * The namespace's PDBs whose selectors name a label controllers give their pods (a StatefulSet's pod names), which
   * no template shows: found once per state of the inventory, as every PDB asks for them.
   */
  pdbsByControllerLabels(namespace: string): Resource[] {
    this.log.read(controllerLabelPdbsGroup(namespace));
    return this.namespaceList('controller-label-pdbs', namespace, (r) => r.kind === 'PodDisruptionBudget' && asksForControllerLabel(pdbSelector(r)));
  }

  /** The labels of a pod carrier's pods with those its controller gives them, as far as `selectors` tell them apart (see podLabelSets). */
  podLabelSetsOf(carrier: Resource, selectors: readonly LabelSelector[]): Labels[] {
    const labels = podTemplateOf(carrier)?.labels;
    return labels ? podLabelSets(carrier, labels, this.effectiveReplicas(carrier).value, selectors) : [];
  }

  /** Whether some pod of the carrier, with the labels its controller gives it, matches every one of `selectors`. */
  selectsSomePodOf(carrier: Resource, selectors: readonly LabelSelector[]): boolean {
    return this.podLabelSetsOf(carrier, selectors).some((pod) => selectors.every((selector) => selectorMatches(selector, pod)));
  }

  /** How many of a pod carrier's pods the selector selects, by the labels their controller gives them too (see podsSelected). */
  podsSelectedOf(carrier: Resource, selector: LabelSelector): number {
    const labels = podTemplateOf(carrier)?.labels;
    return labels ? podsSelected(carrier, labels, this.effectiveReplicas(carrier).value, selector) : 0;
  }

  /** The names of a StatefulSet's pods the selector selects (`db-0`), of the `pods` it runs (see podNamesSelected). */
  podNamesSelectedOf(carrier: Resource, selector: LabelSelector, pods = this.effectiveReplicas(carrier).value): string[] {
    const labels = podTemplateOf(carrier)?.labels;
    return labels ? podNamesSelected(carrier, labels, pods, selector) : [];
  }

  /** The memory a LimitRange in the namespace gives containers that state none, and which LimitRange it is. */
  memoryDefaults(namespace: string): { request?: unknown; limit?: unknown; limitRange?: Resource } {
    for (const limitRange of this.inNamespace(namespace, 'LimitRange')) {
      const limits = limitRange.object?.spec?.limits;
      const container = (Array.isArray(limits) ? limits : []).find((l: any) => l?.type === 'Container');
      // As the API server fills them in (SetDefaults_LimitRangeItem): a default limit from max, a default request
      // from the default limit, else from min.
      const limit = container?.default?.memory ?? container?.max?.memory;
      const request = container?.defaultRequest?.memory ?? limit ?? container?.min?.memory;
      if (request !== undefined || limit !== undefined) return { request, limit, limitRange };
    }
    return {};
  }

  /** Pods (from the cluster) that a workload's selector matches. */
  podsOf(workload: Resource): Resource[] {
    const selector = workloadSelector(workload);
    if (!selector) return [];
    return this.inNamespace(workload.namespace, 'Pod').filter((pod) => selectorMatches(selector, pod.object?.metadata?.labels));
  }
}

/** The one label every pod a selector matches carries, as a list to file it under (undefined: no such label). */
function selectorLabels(selector: unknown): LabelPair[] | undefined {
  const label = requiredLabel(selector as LabelSelector);
  return label ? [label] : undefined;
}

/** The same for a Service's plain map selector. */
function mapSelectorLabels(selector: unknown): LabelPair[] | undefined {
  return selector && typeof selector === 'object' ? selectorLabels({ matchLabels: selector }) : undefined;
}

/** The groups holding a namespace's autoscalers. */
function autoscalerGroups(namespace: string): string[] {
  return AUTOSCALER_KINDS.map((kind) => `${namespace}|${kind}`);
}

/** The groups holding a namespace's pod carriers. */
function carrierGroups(namespace: string): string[] {
  return WORKLOAD_KINDS.map((kind) => `${namespace}|${kind}`);
}

/** A question about pod carriers matching `selector`: it reads the groups filed under its label, or all of them. */
function carrierQuestion(namespace: string, selector: unknown): LabelQuestion {
  return labelQuestion('carriers', namespace, selector);
}

/** A question to a label index: the labels it names (undefined: every item), and the groups it reads. */
interface LabelQuestion {
  labels: readonly LabelPair[] | undefined;
  groups: readonly string[];
  /** A selector asking for labels controllers give pods (a StatefulSet's pod names), which it matches against each carrier's pods. */
  byControllerLabels?: boolean;
}

/**
 * The question `about` makes to a namespace's label index (a selector to the pod carriers, pod labels to
 * the PDBs and Services), made once per parsed object and namespace: rules ask the inventory about each
 * workload several times, and building the labels and group names anew for every ask allocated more
 * than answering it (a fifth of what a Fix all round's analysis allocated).
 */
function labelQuestion(index: LabelIndexName, namespace: string, about: unknown): LabelQuestion {
  // Checked against the namespace, as groupsOf is: one object may be asked about under another (render/source-yaml).
  const known = factOf(labelQuestions[index], about, () => ({ namespace, question: newLabelQuestion(index, namespace, about) }));
  return known.namespace === namespace ? known.question : newLabelQuestion(index, namespace, about);
}

function newLabelQuestion(index: LabelIndexName, namespace: string, about: unknown): LabelQuestion {
  if (index === 'carriers' && asksForControllerLabel(about)) return controllerLabelQuestion(namespace, about);
  const labels = index === 'carriers' ? selectorLabels(about) : matchableLabels(about);
  return { labels, groups: questionGroups(namespace, index, labels) ?? everyItemGroups(index, namespace) };
}

/**
 * A question about pod carriers by a selector asking for labels controllers give pods: filed under what it asks of
 * templates, and reading the namespace's autoscalers, as which pods a carrier runs (`db-4`?) hangs on its replica count.
 */
function controllerLabelQuestion(namespace: string, selector: LabelSelector): LabelQuestion {
  const labels = selectorLabels(withoutControllerLabels(selector));
  return { labels, groups: [...(questionGroups(namespace, 'carriers', labels) ?? carrierGroups(namespace)), ...autoscalerGroups(namespace)], byControllerLabels: true };
}

/** The groups a question naming no labels reads: every item the index holds. */
function everyItemGroups(index: LabelIndexName, namespace: string): string[] {
  if (index === 'carriers') return carrierGroups(namespace);
  return [`${namespace}|${index === 'pdbs' ? 'PodDisruptionBudget' : 'Service'}`];
}

const labelQuestions: Record<LabelIndexName, WeakMap<object, { namespace: string; question: LabelQuestion }>> = { carriers: new WeakMap(), pdbs: new WeakMap(), services: new WeakMap() };

/** What the inventory derives from its files and cluster, each part built when first asked for. */
interface Derived {
  /** Every resource, grouped by namespace. */
  byNamespace?: Map<string, Resource[]>;
  /** The resources of a namespace grouped by name, for each namespace asked about. */
  byNameInNamespace: Map<string, Map<string, Resource[]>>;
  /** The resources of a namespace grouped by kind, for each namespace asked about. */
  byKindInNamespace: Map<string, Map<string, Resource[]>>;
  /** Per-namespace lists rules ask for once per resource (pod carriers, custom resources). */
  namespaceLists: Map<string, Resource[]>;
  /** Per-namespace indexes of selectors and of pod labels, so that matching them is not a scan per resource. */
  labelIndexes: Map<string, LabelIndex<Resource>>;
  /** Answers to per-resource questions asked by several rules. */
  answers: Map<string, WeakMap<object, { uri: string | undefined; result: Resource[] }>>;
}

function nothingDerived(): Derived {
  return { byNameInNamespace: new Map(), byKindInNamespace: new Map(), namespaceLists: new Map(), labelIndexes: new Map(), answers: new Map() };
}

/** How each label index files resources: which belong in it, and under which labels (undefined: under every question). */
const LABEL_INDEXES = {
  carriers: { holds: isLongRunning, labelsOf: (r: Resource) => matchableLabels(podTemplateOf(r)?.labels) },
  pdbs: { holds: (r: Resource) => r.kind === 'PodDisruptionBudget', labelsOf: (r: Resource) => selectorLabels(pdbSelector(r)) },
  services: { holds: (r: Resource) => r.kind === 'Service', labelsOf: (r: Resource) => mapSelectorLabels(r.object?.spec?.selector) },
};
type LabelIndexName = keyof typeof LABEL_INDEXES;

/** The group of a namespace's items of a label index filed under one label, or under every question. */
function labelGroup(namespace: string, index: LabelIndexName, label: LabelPair | 'always'): string {
  return `${namespace}|${index}|${label === 'always' ? label : `${label[0]}=${label[1]}`}`;
}

/**
 * The groups a question to a label index names: the items filed under its labels and those filed for every
 * question; undefined when it names no labels (it reads every item).
 */
function questionGroups(namespace: string, index: LabelIndexName, labels: readonly LabelPair[] | undefined): string[] | undefined {
  return labels ? [...labels.map((label) => labelGroup(namespace, index, label)), labelGroup(namespace, index, 'always')] : undefined;
}

/**
 * The groups a resource belongs to, as questions to the inventory read them (see ReadLog). Besides its
 * namespace and kind, where it is filed in a label index: a PDB under the label its selector requires,
 * a workload under its pods' labels. So a keystroke in one Deployment moves only the questions its labels
 * answer, and the other PDBs of its namespace keep their findings.
 */
function groupsOf(resource: Resource): string[] {
  // Once per parsed object: a resource that goes was filed when it came (Fix all files 3,600 each round).
  // Checked against namespace and kind: a source file's document stands for itself under another namespace
  // than its object gives (render/source-yaml), and the groups must be those of the resource asked about.
  const filed = factOf(filedGroups, resource.object, () => ({ namespace: resource.namespace, kind: resource.kind, groups: groupsNamed(resource) }));
  return filed.namespace === resource.namespace && filed.kind === resource.kind ? filed.groups : groupsNamed(resource);
}

const filedGroups = new WeakMap<object, { namespace: string; kind: string; groups: string[] }>();

function groupsNamed(resource: Resource): string[] {
  const { namespace, kind } = resource;
  const groups = [`${namespace}|${kind}`, `${namespace}|*`, `*|${kind}`, '*'];
  if (isCustomResource(resource)) groups.push(`${namespace}|+custom`);
  if (resource.name !== null) groups.push(nameGroup(namespace, resource.name));
  if (kind === 'PodDisruptionBudget' && asksForControllerLabel(pdbSelector(resource))) groups.push(controllerLabelPdbsGroup(namespace));
  groups.push(...labelIndexGroups(resource));
  return groups;
}

/**
 * The group of a namespace's PDBs by controller labels (see pdbsByControllerLabels): every PDB asks for them, and
 * reading all the namespace's PDBs instead made one new PDB analyse every other again (Fix all's second round
 * of the 106k-line file analysed 1,635 PDBs that nothing had changed).
 */
function controllerLabelPdbsGroup(namespace: string): string {
  return `${namespace}|PodDisruptionBudget|controller-labels`;
}

/** The group of a namespace's resources of one name (see namedIn). */
function nameGroup(namespace: string, name: string): string {
  return `${namespace}|name=${name}`;
}

/** Where the label indexes file a resource (a question naming one of these labels reads its group). */
function labelIndexGroups(resource: Resource): string[] {
  return (Object.keys(LABEL_INDEXES) as LabelIndexName[]).flatMap((index) => {
    const { holds, labelsOf } = LABEL_INDEXES[index];
    if (!holds(resource)) return [];
    const labels = labelsOf(resource);
    return labels ? labels.map((label) => labelGroup(resource.namespace, index, label)) : [labelGroup(resource.namespace, index, 'always')];
  });
}

/**
 * One definition per identity: where several files define the same kind, namespace and name (a folder per
 * environment), the one nearest to `from` in the folder tree, so that a relation never counts one object twice
 * nor joins one environment's PDB to another's Deployment.
 */
export function nearestDefinitions(resources: Resource[], from: Resource): Resource[] {
  // Resources named by generateName alone are each an object of their own.
  const byIdentity = new Map<string | Resource, Resource[]>();
  for (const resource of resources) {
    const identity = resource.name ? key(resource) : resource;
    const same = byIdentity.get(identity);
    if (same) same.push(resource);
    else byIdentity.set(identity, [resource]);
  }
  if (byIdentity.size === resources.length) return resources;
  const nearest = new Set<Resource>();
  for (const same of byIdentity.values()) {
    if (same.includes(from)) nearest.add(from);
    else nearest.add(same.reduce((best, r) => (sharedFolderDepth(r, from) > sharedFolderDepth(best, from) ? r : best)));
  }
  return resources.filter((r) => nearest.has(r));
}

/** How many folders two resources' files share from the root down (0 for a resource read from a cluster). */
function sharedFolderDepth(a: Resource, b: Resource): number {
  if (!a.file || !b.file) return 0;
  const x = foldersOf(a.file.uri);
  const y = foldersOf(b.file.uri);
  let depth = 0;
  while (depth < x.length && depth < y.length && x[depth] === y[depth]) depth++;
  return depth;
}

/** Whether two resources come from files of one folder (what `kubectl apply -f` of a folder applies together). */
export function inOneFolder(a: Resource, b: Resource): boolean {
  return !!a.file && !!b.file && foldersOf(a.file.uri).join('/') === foldersOf(b.file.uri).join('/');
}

function foldersOf(uri: string): string[] {
  return uri.split(/[\\/]/).slice(0, -1);
}

/** A kind from an API group outside Kubernetes itself (built-in groups have no dot or end in `.k8s.io`). */
export function isCustomResource(resource: Resource): boolean {
  const group = groupOf(resource.apiVersion);
  return group.includes('.') && !group.endsWith('.k8s.io');
}

/** ReplicaSets owned by a Deployment and Jobs owned by a CronJob (read from a cluster) are counted through their owner. */
export function ownedByAnother(resource: Resource): boolean {
  const owners = resource.object?.metadata?.ownerReferences;
  return Array.isArray(owners) && owners.some((o) => o && typeof o === 'object' && o.controller === true);
}
