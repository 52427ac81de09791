/**
 * Typed messages between the simulation webview and the extension that hosts it, and the validators
 * both sides run on everything they receive: a message that does not validate is dropped and logged.
 * Browser-safe: no Node, no vscode.
 */
import type { ComponentName, DrainResult, Failure, Scenario, ScenarioEvent, SimulationResult, State, Subject } from './types';

/** What the webview draws before anything is simulated: the cluster's shape. */
export interface SimulationInput {
  cluster: { source: 'live' | 'snapshot' | 'demo'; name: string; managed?: string };
  /** Control-plane nodes first, then workers. */
  nodes: NodeView[];
  workloads: WorkloadView[];
  /** What the drawing itself assumes (spread placement, a hidden control plane, …). */
  notes: string[];
}

export interface NodeView {
  name: string;
  role: 'control-plane' | 'worker';
  zone?: string;
  /** Whether an etcd member runs here (stacked etcd). */
  etcdMember: boolean;
  /** Whether a CoreDNS replica runs here. */
  dns: boolean;
  pods: PodView[];
}

export interface PodView {
  name: string;
  namespace: string;
  /** The workload owning the pod (its own name for a bare pod). */
  workload: string;
  kind: string;
}

export interface WorkloadView {
  kind: string;
  name: string;
  namespace: string;
  replicas: number;
  placement: 'observed' | 'assumed';
}

export type ToWebview =
  | { type: 'input'; input: SimulationInput }
  | { type: 'result'; result: SimulationResult }
  | { type: 'busy' }
  | { type: 'error'; message: string }
  /** Bring one workload forward (the code lens above its manifest was used). */
  | { type: 'focus'; namespace: string; workload: string }
  /** Simulate this scenario (a finding's hover asked for a drain of its workload's node). */
  | { type: 'scenario'; scenario: Scenario };

export type FromWebview =
  | { type: 'ready' }
  | { type: 'simulate'; scenario: Scenario }
  | { type: 'export'; scenario: Scenario }
  /** Show a finding in its manifest with its fixes (a PDB that blocks a drain: rule pdb-blocks-eviction). */
  | { type: 'open-finding'; finding: FindingRef };

/** A resource named by its kind, namespace and name (a live object asked for). */
export interface ObjectRef {
  kind: string;
  namespace: string;
  name: string;
}

/** A finding by what it is about, for the editor to find in the workspace. */
export interface FindingRef extends ObjectRef {
  ruleId: string;
}

/** The client command the code lens above a workload runs, with `SimulateWorkloadArgs`. */
export const SIMULATE_WORKLOAD_COMMAND = 'kubeResilience.simulateWorkload';

export interface SimulateWorkloadArgs {
  namespace: string;
  name: string;
  kind: string;
  /** Open the simulator on a `kubectl drain` of the node the workload runs on (a finding's hover). */
  drain?: boolean;
}

export type Validated<T> = { ok: true; value: T } | { ok: false; error: string };

export const COMPONENT_NAMES: readonly ComponentName[] = ['api', 'scheduling', 'controllers', 'autoscaling', 'dns', 'service-routing', 'kubectl', 'etcd'];
export const STATES: readonly State[] = ['ok', 'degraded', 'down'];
export const FAILURE_KINDS: readonly Failure['kind'][] = ['none', 'apiserver', 'etcd', 'scheduler', 'controller-manager', 'nodes'];

/** Bounds that keep a hostile or broken message from costing more than it is worth. */
const MAX_TEXT = 10_000;
/** The most items a list of a message holds: a simulation's timeline with more is not sent, and a view refuses it. */
export const MAX_ITEMS = 100_000;
/** A week: longer outages are not a control-plane failure any more, they are a new cluster. */
export const MAX_DURATION_SECONDS = 7 * 24 * 3600;
/** The largest traffic-surge factor a scenario takes. */
export const MAX_SURGE_FACTOR = 1000;

class Invalid extends Error {}

function fail(path: string, expected: string): never {
  throw new Invalid(`${path}: expected ${expected}`);
}

function record(value: unknown, path: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) fail(path, 'an object');
  return value as Record<string, unknown>;
}

function text(value: unknown, path: string): string {
  if (typeof value !== 'string' || value.length > MAX_TEXT) fail(path, 'a string');
  return value;
}

function name(value: unknown, path: string): string {
  const s = text(value, path);
  if (!s.length || s.length > 253) fail(path, 'a non-empty name');
  return s;
}

function optionalText(value: unknown, path: string): string | undefined {
  return value === undefined ? undefined : text(value, path);
}

function number(value: unknown, path: string, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) fail(path, `a number in [${min}, ${max}]`);
  return value;
}

function boolean(value: unknown, path: string): boolean {
  if (typeof value !== 'boolean') fail(path, 'a boolean');
  return value;
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], path: string): T {
  if (!allowed.includes(value as T)) fail(path, `one of ${allowed.join(', ')}`);
  return value as T;
}

function list<T>(value: unknown, path: string, item: (v: unknown, p: string) => T): T[] {
  if (!Array.isArray(value) || value.length > MAX_ITEMS) fail(path, 'an array');
  return value.map((v, i) => item(v, `${path}[${i}]`));
}

/** The simulator steps in whole seconds, and counts whole nodes (a duration of 3600.5 was titled "1 h 1 s"). */
function whole(value: number, path: string): number {
  if (!Number.isInteger(value)) fail(path, 'a whole number');
  return value;
}

function at(value: unknown, path: string): number {
  return number(value, path, 0, MAX_DURATION_SECONDS * 4);
}

function failure(value: unknown, path: string): Failure {
  const o = record(value, path);
  const kind = oneOf(o.kind, FAILURE_KINDS, `${path}.kind`);
  if (kind === 'nodes') return { kind, nodes: list(o.nodes, `${path}.nodes`, name) };
  return { kind };
}

const EVENT_KINDS: readonly ScenarioEvent['kind'][] = ['node-reboot', 'node-lost', 'pod-crash', 'traffic-surge', 'coredns-restart', 'kube-proxy-restart', 'drain', 'scale-down', 'upgrade-nodes'];

function scenarioEvent(value: unknown, path: string): ScenarioEvent {
  const o = record(value, path);
  const kind = oneOf(o.kind, EVENT_KINDS, `${path}.kind`);
  const when = whole(at(o.at, `${path}.at`), `${path}.at`);
  switch (kind) {
    case 'node-reboot':
    case 'node-lost':
    case 'kube-proxy-restart':
    case 'drain':
    case 'scale-down':
      return { kind, node: name(o.node, `${path}.node`), at: when };
    case 'coredns-restart':
    case 'upgrade-nodes':
      return { kind, at: when };
    case 'pod-crash':
      return { kind, namespace: name(o.namespace, `${path}.namespace`), workload: name(o.workload, `${path}.workload`), mode: oneOf(o.mode, ['restartable', 'permanent'] as const, `${path}.mode`), at: when };
    case 'traffic-surge':
      return { kind, namespace: name(o.namespace, `${path}.namespace`), workload: name(o.workload, `${path}.workload`), factor: number(o.factor, `${path}.factor`, 1, MAX_SURGE_FACTOR), at: when };
  }
}

function scenarioAt(value: unknown, path: string): Scenario {
  const o = record(value, path);
  const scenario: Scenario = {
    fail: failure(o.fail, `${path}.fail`),
    duration: whole(number(o.duration, `${path}.duration`, 1, MAX_DURATION_SECONDS), `${path}.duration`),
    events: list(o.events, `${path}.events`, scenarioEvent),
  };
  if (o.controlPlanes !== undefined) scenario.controlPlanes = whole(number(o.controlPlanes, `${path}.controlPlanes`, 1, 9), `${path}.controlPlanes`);
  return scenario;
}

function subject(value: unknown, path: string): Subject {
  const o = record(value, path);
  const type = oneOf(o.type, ['component', 'node', 'workload'] as const, `${path}.type`);
  if (type === 'component') return { type, name: oneOf(o.name, COMPONENT_NAMES, `${path}.name`) };
  if (type === 'node') return { type, name: name(o.name, `${path}.name`) };
  const kind = optionalText(o.kind, `${path}.kind`);
  return { type, name: name(o.name, `${path}.name`), namespace: text(o.namespace, `${path}.namespace`), ...(kind !== undefined ? { kind } : {}) };
}

function workloadIdentity(w: Record<string, unknown>, path: string) {
  return {
    kind: name(w.kind, `${path}.kind`),
    name: name(w.name, `${path}.name`),
    namespace: text(w.namespace, `${path}.namespace`),
    placement: oneOf(w.placement, ['observed', 'assumed'] as const, `${path}.placement`),
  };
}

function result(value: unknown, path: string): SimulationResult {
  const o = record(value, path);
  if (o.version !== 1) fail(`${path}.version`, '1');
  return {
    version: 1,
    scenario: scenarioAt(o.scenario, `${path}.scenario`),
    timeline: list(o.timeline, `${path}.timeline`, (v, p) => {
      const e = record(v, p);
      return { at: at(e.at, `${p}.at`), subject: subject(e.subject, `${p}.subject`), state: oneOf(e.state, STATES, `${p}.state`), reason: text(e.reason, `${p}.reason`), fact: text(e.fact, `${p}.fact`) };
    }),
    workloads: list(o.workloads, `${path}.workloads`, (v, p) => {
      const w = record(v, p);
      return {
        ...workloadIdentity(w, p),
        capacity: list(w.capacity, `${p}.capacity`, (c, cp) => {
          const point = record(c, cp);
          const load = point.load === undefined ? undefined : number(point.load, `${cp}.load`);
          return { at: at(point.at, `${cp}.at`), ready: number(point.ready, `${cp}.ready`), desired: number(point.desired, `${cp}.desired`), blackholed: number(point.blackholed, `${cp}.blackholed`, 0, 1), ...(load !== undefined ? { load } : {}) };
        }),
        ...(w.evictions !== undefined
          ? {
              evictions: list(w.evictions, `${p}.evictions`, (e, ep) => {
                const ev = record(e, ep);
                return { node: name(ev.node, `${ep}.node`), at: at(ev.at, `${ep}.at`), stopped: nullable(ev.stopped, `${ep}.stopped`, at), replacementReady: nullable(ev.replacementReady, `${ep}.replacementReady`, at), sessionsCut: boolean(ev.sessionsCut, `${ep}.sessionsCut`) };
              }),
            }
          : {}),
      };
    }),
    components: list(o.components, `${path}.components`, (v, p) => {
      const c = record(v, p);
      return {
        name: oneOf(c.name, COMPONENT_NAMES, `${p}.name`),
        states: list(c.states, `${p}.states`, (s, sp) => {
          const point = record(s, sp);
          return { at: at(point.at, `${sp}.at`), state: oneOf(point.state, STATES, `${sp}.state`) };
        }),
      };
    }),
    assumptions: list(o.assumptions, `${path}.assumptions`, text),
    ...(o.end !== undefined ? { end: at(o.end, `${path}.end`) } : {}),
    ...(o.summary !== undefined ? { summary: list(o.summary, `${path}.summary`, text) } : {}),
    ...(o.drains !== undefined ? { drains: list(o.drains, `${path}.drains`, drain) } : {}),
  };
}

function nullable<T>(value: unknown, path: string, parse: (v: unknown, p: string) => T): T | null {
  return value === null ? null : parse(value, path);
}

function drain(value: unknown, path: string): DrainResult {
  const d = record(value, path);
  return {
    node: name(d.node, `${path}.node`),
    by: oneOf(d.by, ['kubectl', 'autoscaler'] as const, `${path}.by`),
    start: at(d.start, `${path}.start`),
    end: nullable(d.end, `${path}.end`, at),
    notRemovedBecause: nullable(d.notRemovedBecause, `${path}.notRemovedBecause`, text),
    blocked: list(d.blocked, `${path}.blocked`, (v, p) => {
      const b = record(v, p);
      return { workload: name(b.workload, `${p}.workload`), pdb: name(b.pdb, `${p}.pdb`), from: at(b.from, `${p}.from`), to: nullable(b.to, `${p}.to`, at), untilReady: boolean(b.untilReady, `${p}.untilReady`) };
    }),
    evicted: list(d.evicted, `${path}.evicted`, (v, p) => {
      const e = record(v, p);
      return { workload: name(e.workload, `${p}.workload`), at: at(e.at, `${p}.at`) };
    }),
  };
}

function input(value: unknown, path: string): SimulationInput {
  const o = record(value, path);
  const c = record(o.cluster, `${path}.cluster`);
  const managed = optionalText(c.managed, `${path}.cluster.managed`);
  return {
    cluster: { source: oneOf(c.source, ['live', 'snapshot', 'demo'] as const, `${path}.cluster.source`), name: text(c.name, `${path}.cluster.name`), ...(managed !== undefined ? { managed } : {}) },
    nodes: list(o.nodes, `${path}.nodes`, (v, p) => {
      const n = record(v, p);
      const zone = optionalText(n.zone, `${p}.zone`);
      return {
        name: name(n.name, `${p}.name`),
        role: oneOf(n.role, ['control-plane', 'worker'] as const, `${p}.role`),
        ...(zone !== undefined ? { zone } : {}),
        etcdMember: boolean(n.etcdMember, `${p}.etcdMember`),
        dns: boolean(n.dns, `${p}.dns`),
        pods: list(n.pods, `${p}.pods`, (pv, pp) => {
          const pod = record(pv, pp);
          return { name: name(pod.name, `${pp}.name`), namespace: text(pod.namespace, `${pp}.namespace`), workload: name(pod.workload, `${pp}.workload`), kind: name(pod.kind, `${pp}.kind`) };
        }),
      };
    }),
    workloads: list(o.workloads, `${path}.workloads`, (v, p) => {
      const w = record(v, p);
      return { ...workloadIdentity(w, p), replicas: number(w.replicas, `${p}.replicas`) };
    }),
    notes: list(o.notes, `${path}.notes`, text),
  };
}

function objectRef(value: unknown, path: string): ObjectRef {
  const o = record(value, path);
  return { kind: name(o.kind, `${path}.kind`), namespace: text(o.namespace, `${path}.namespace`), name: name(o.name, `${path}.name`) };
}

function findingRef(value: unknown, path: string): FindingRef {
  return { ruleId: name(record(value, path).ruleId, `${path}.ruleId`), ...objectRef(value, path) };
}

export function validateFindingRef(value: unknown): Validated<FindingRef> {
  return validate(value, findingRef, 'finding');
}

export function validateObjectRef(value: unknown): Validated<ObjectRef> {
  return validate(value, objectRef, 'object');
}

/** A range of a document in LSP positions. */
export interface LspRange {
  start: { line: number; character: number };
  end: { line: number; character: number };
}

/** Where a finding is: a document and a range in it. */
export interface FindingLocation {
  uri: string;
  range: LspRange;
}

function lspRange(value: unknown, path: string): LspRange {
  const r = record(value, path);
  const position = (p: unknown, pp: string) => {
    const q = record(p, pp);
    return { line: number(q.line, `${pp}.line`), character: number(q.character, `${pp}.character`) };
  };
  return { start: position(r.start, `${path}.start`), end: position(r.end, `${path}.end`) };
}

export function validateRange(value: unknown): Validated<LspRange> {
  return validate(value, lspRange, 'range');
}

export function validateFindingLocation(value: unknown): Validated<FindingLocation | null> {
  if (value === null) return { ok: true, value: null };
  return validate(
    value,
    (v, path) => {
      const o = record(v, path);
      return { uri: text(o.uri, `${path}.uri`), range: lspRange(o.range, `${path}.range`) };
    },
    'location',
  );
}

function validate<T>(value: unknown, parse: (v: unknown, path: string) => T, path: string): Validated<T> {
  try {
    return { ok: true, value: parse(value, path) };
  } catch (e) {
    if (e instanceof Invalid) return { ok: false, error: e.message };
    throw e;
  }
}

export function validateScenario(value: unknown): Validated<Scenario> {
  return validate(value, scenarioAt, 'scenario');
}

/** Whether two scenarios say the same, whatever order their keys were written in. */
export function sameScenario(a: Scenario, b: Scenario): boolean {
  const canonical = (s: Scenario) => {
    const checked = validateScenario(s);
    return JSON.stringify(checked.ok ? checked.value : s);
  };
  return canonical(a) === canonical(b);
}

export function validateSimulationResult(value: unknown): Validated<SimulationResult> {
  return validate(value, result, 'result');
}

export function validateSimulationInput(value: unknown): Validated<SimulationInput> {
  return validate(value, input, 'input');
}

/** Checks a message the extension sends to the webview. */
export function validateToWebview(value: unknown): Validated<ToWebview> {
  return validate(
    value,
    (v, path): ToWebview => {
      const o = record(v, path);
      const type = oneOf(o.type, ['input', 'result', 'busy', 'error', 'focus', 'scenario'] as const, `${path}.type`);
      switch (type) {
        case 'input':
          return { type, input: input(o.input, `${path}.input`) };
        case 'result':
          return { type, result: result(o.result, `${path}.result`) };
        case 'busy':
          return { type };
        case 'error':
          return { type, message: text(o.message, `${path}.message`) };
        case 'focus':
          return { type, namespace: text(o.namespace, `${path}.namespace`), workload: name(o.workload, `${path}.workload`) };
        case 'scenario':
          return { type, scenario: scenarioAt(o.scenario, `${path}.scenario`) };
      }
    },
    'message',
  );
}

/** Checks a message the webview sends to the extension. */
export function validateFromWebview(value: unknown): Validated<FromWebview> {
  return validate(
    value,
    (v, path): FromWebview => {
      const o = record(v, path);
      const type = oneOf(o.type, ['ready', 'simulate', 'export', 'open-finding'] as const, `${path}.type`);
      if (type === 'ready') return { type };
      if (type === 'open-finding') return { type, finding: findingRef(o.finding, `${path}.finding`) };
      return { type, scenario: scenarioAt(o.scenario, `${path}.scenario`) };
    },
    'message',
  );
}

/** Checks the code lens command's argument. */
export function validateSimulateWorkloadArgs(value: unknown): Validated<SimulateWorkloadArgs> {
  return validate(
    value,
    (v, path) => {
      const o = record(v, path);
      const drain = o.drain === undefined ? undefined : boolean(o.drain, `${path}.drain`);
      return { namespace: text(o.namespace, `${path}.namespace`), name: name(o.name, `${path}.name`), kind: name(o.kind, `${path}.kind`), ...(drain ? { drain } : {}) };
    },
    'arguments',
  );
}
