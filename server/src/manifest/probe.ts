import { writtenNotInteger } from './integer-field';

/** The parts of a probe that decide what it checks, with named ports resolved against the container. */
export type ProbeHandler =
  | { type: 'httpGet'; path: string; port: string; host?: string; scheme: string }
  | { type: 'tcpSocket'; port: string }
  | { type: 'exec'; command: string }
  | { type: 'grpc'; port: string; service: string };

export const PROBE_DEFAULTS = { initialDelaySeconds: 0, periodSeconds: 10, failureThreshold: 3, timeoutSeconds: 1, successThreshold: 1 };
export type ProbeTimings = typeof PROBE_DEFAULTS;
export type ProbeTimingField = keyof ProbeTimings;
const TIMING_FIELDS = Object.keys(PROBE_DEFAULTS) as ProbeTimingField[];

/** A named port becomes the number the container declares for it, so `http` and `8080` compare equal. */
export function resolvePort(port: unknown, container: any): string {
  if (typeof port === 'string' && !/^\d+$/.test(port)) {
    const declared = (Array.isArray(container?.ports) ? container.ports : []).find((p: any) => p?.name === port);
    if (declared && declared.containerPort !== undefined) return String(declared.containerPort);
  }
  return String(port);
}

export function probeHandler(probe: any, container: any): ProbeHandler | undefined {
  if (!probe || typeof probe !== 'object') return undefined;
  if (probe.httpGet) {
    const h = probe.httpGet;
    // An empty host is the pod's IP, as no host is.
    return { type: 'httpGet', path: normalisePath(h.path), port: resolvePort(h.port, container), host: h.host || undefined, scheme: String(h.scheme ?? 'HTTP').toUpperCase() };
  }
  if (probe.tcpSocket) return { type: 'tcpSocket', port: resolvePort(probe.tcpSocket.port, container) };
  if (probe.exec) return { type: 'exec', command: JSON.stringify(probe.exec.command ?? []) };
  if (probe.grpc) return { type: 'grpc', port: resolvePort(probe.grpc.port, container), service: String(probe.grpc.service ?? '') };
  return undefined;
}

function normalisePath(path: unknown): string {
  const text = typeof path === 'string' && path ? path : '/';
  return text.length > 1 ? text.replace(/\/+$/, '') : text;
}

export function sameHandler(a: ProbeHandler | undefined, b: ProbeHandler | undefined): boolean {
  return !!a && !!b && JSON.stringify(a) === JSON.stringify(b);
}

export function describeHandler(handler: ProbeHandler): string {
  switch (handler.type) {
    case 'httpGet':
      return `GET ${handler.path} on port ${handler.port}`;
    case 'tcpSocket':
      return `TCP port ${handler.port}`;
    case 'exec': {
      const command: unknown = JSON.parse(handler.command);
      return `exec ${Array.isArray(command) ? command.join(' ') : String(command)}`;
    }
    case 'grpc':
      return `gRPC port ${handler.port}${handler.service ? ` service ${handler.service}` : ''}`;
  }
}

/** A probe field as the kubelet runs it: a whole number from `least` on, else its default (a 0 period, timeout or threshold is set to its default by the API server, as if unset). */
function countOr(value: unknown, least: number, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= least ? value : fallback;
}

/** Why a readiness probe's own terminationGracePeriodSeconds is refused, whatever its value. */
export const ON_READINESS = 'is for liveness and startup probes only';
/** Why the API server refuses a probe field's value, as a message goes on after it: `periodSeconds -5 is negative`. */
export type RefusedWhy = 'is no integer' | 'is negative' | 'must be 1' | 'must be greater than 0' | typeof ON_READINESS;
export type CheckedProbeField = ProbeTimingField | 'terminationGracePeriodSeconds';
const CHECKED_FIELDS: CheckedProbeField[] = [...TIMING_FIELDS, 'terminationGracePeriodSeconds'];

/**
 * Why the API server refuses this value of a probe's field, undefined when it takes it. It validates after defaulting,
 * which makes a 0 period, timeout or threshold its default: those are taken, a negative one is not.
 */
export function probeFieldRefusal(field: CheckedProbeField, value: unknown, kind: ProbeField): RefusedWhy | undefined {
  if (setOnReadiness(field, value, kind)) return ON_READINESS;
  if (writtenNotInteger(value)) return 'is no integer';
  if (typeof value !== 'number') return undefined;
  if (field === 'terminationGracePeriodSeconds') return value > 0 ? undefined : 'must be greater than 0';
  if (mustBeOne(field, kind)) return value === 1 || value === 0 ? undefined : 'must be 1';
  return value < 0 ? 'is negative' : undefined;
}

/** A readiness probe restarts nothing, so it has no grace period of its own: the API server refuses one set to any value ("must not be set for readinessProbes"). */
function setOnReadiness(field: CheckedProbeField, value: unknown, kind: ProbeField): boolean {
  return field === 'terminationGracePeriodSeconds' && kind === 'readinessProbe' && value != null;
}

/** A liveness or startup probe acts on its first success: the API server takes no other successThreshold (0 it defaults to 1). */
export function mustBeOne(field: CheckedProbeField, kind: ProbeField): boolean {
  return field === 'successThreshold' && kind !== 'readinessProbe';
}

/**
 * The first of the probe's timings the API server refuses (`periodSeconds: "10"`, `-5`, a liveness successThreshold
 * of 2, a terminationGracePeriodSeconds of 0, or any on a readiness probe): it rejects the pod, so the probe runs on
 * no timings at all, its defaults included.
 */
export function refusedTiming(probe: any, kind: ProbeField): { field: CheckedProbeField; value: unknown; why: RefusedWhy } | undefined {
  if (!probe || typeof probe !== 'object') return undefined;
  for (const field of CHECKED_FIELDS) {
    const why = probeFieldRefusal(field, probe[field], kind);
    if (why) return { field, value: probe[field], why };
  }
  return undefined;
}

/** The probe's timings as the kubelet runs them; undefined when the API server refuses one of them (refusedTiming). */
export function probeTimings(probe: any, kind: ProbeField): ProbeTimings | undefined {
  if (refusedTiming(probe, kind)) return undefined;
  return {
    initialDelaySeconds: countOr(probe?.initialDelaySeconds, 0, PROBE_DEFAULTS.initialDelaySeconds),
    periodSeconds: countOr(probe?.periodSeconds, 1, PROBE_DEFAULTS.periodSeconds),
    failureThreshold: countOr(probe?.failureThreshold, 1, PROBE_DEFAULTS.failureThreshold),
    timeoutSeconds: countOr(probe?.timeoutSeconds, 1, PROBE_DEFAULTS.timeoutSeconds),
    successThreshold: countOr(probe?.successThreshold, 1, PROBE_DEFAULTS.successThreshold),
  };
}

/** Seconds of consecutive failure before the probe acts (restart for liveness, unready for readiness); undefined when its timings are refused. */
export function failureBudgetSeconds(probe: any, kind: ProbeField): number | undefined {
  const t = probeTimings(probe, kind);
  return t && failureBudget(t);
}

/** failureBudgetSeconds of timings already read. */
export function failureBudget(t: ProbeTimings): number {
  return t.failureThreshold * t.periodSeconds;
}

/** Starts vary (a cold cache, a busy node, a slower image pull): a startup probe a fix writes allows a quarter more than the declared start. */
export const START_MARGIN = 1.25;

/** A liveness probe this much more patient than readiness on one handler no longer restarts pods for what readiness handles. */
export const LIVENESS_TOLERANCE = 3;

/**
 * A new readiness probe on the liveness probe's own handler, timed to give up no later than a third of the time
 * liveness takes (LIVENESS_TOLERANCE): with its default timings it made liveness and readiness one probe, and
 * their rule's fix then changed the liveness probe the person wrote. None when liveness gives up in under 3 s (a
 * probe runs once a second at most) or on timings the API server refuses; any other probe is given back as it is.
 */
export function timedUnderLiveness(readiness: Record<string, unknown> | undefined, container: any): Record<string, unknown> | undefined {
  const liveness = probeHandler(container?.livenessProbe, container);
  if (!readiness || !sameHandler(liveness, probeHandler(readiness, container))) return readiness;
  const budget = failureBudgetSeconds(container.livenessProbe, 'livenessProbe');
  if (budget === undefined || budget < LIVENESS_TOLERANCE) return undefined;
  const periodSeconds = budget >= LIVENESS_TOLERANCE * PROBE_DEFAULTS.periodSeconds ? PROBE_DEFAULTS.periodSeconds : Math.max(1, Math.floor(budget / LIVENESS_TOLERANCE));
  const failureThreshold = Math.max(1, Math.min(PROBE_DEFAULTS.failureThreshold, Math.floor(budget / (LIVENESS_TOLERANCE * periodSeconds))));
  return { ...readiness, periodSeconds, failureThreshold };
}

/** Health endpoints of frameworks that split liveness from readiness. */
export const FRAMEWORK_ENDPOINTS: { name: string; aggregate: RegExp; liveness: string; readiness: string; aggregates: string }[] = [
  { name: 'Spring Boot', aggregate: /^\/actuator\/health$/, liveness: '/actuator/health/liveness', readiness: '/actuator/health/readiness', aggregates: 'the database and every other HealthIndicator' },
  { name: 'Quarkus', aggregate: /^\/q\/health$/, liveness: '/q/health/live', readiness: '/q/health/ready', aggregates: 'its readiness checks (datasources, messaging)' },
  { name: 'MicroProfile Health', aggregate: /^\/health$/, liveness: '/health/live', readiness: '/health/ready', aggregates: 'every readiness check' },
];

export function frameworkOf(path: string): (typeof FRAMEWORK_ENDPOINTS)[number] | undefined {
  return FRAMEWORK_ENDPOINTS.find((f) => f.aggregate.test(path));
}

export const PROBE_FIELDS = ['startupProbe', 'livenessProbe', 'readinessProbe'] as const;
export type ProbeField = (typeof PROBE_FIELDS)[number];

export const HANDLER_FIELDS = ['httpGet', 'tcpSocket', 'grpc', 'exec'] as const;

/** The probe's handler as written (`httpGet: {…}`), to copy into another probe. */
export function handlerAsWritten(probe: any): Record<string, unknown> | undefined {
  if (!probe || typeof probe !== 'object') return undefined;
  const field = HANDLER_FIELDS.find((f) => probe[f] && typeof probe[f] === 'object');
  return field ? { [field]: probe[field] } : undefined;
}

/** Seconds a container may take to start before its liveness or startup probe kills it: initialDelaySeconds + failureThreshold × periodSeconds; undefined when its timings are refused. */
export function startBudgetSeconds(probe: any, kind: 'livenessProbe' | 'startupProbe'): number | undefined {
  const t = probeTimings(probe, kind);
  return t && startBudget(t);
}

/** startBudgetSeconds of timings already read. */
export function startBudget(t: ProbeTimings): number {
  return t.initialDelaySeconds + t.failureThreshold * t.periodSeconds;
}

export interface DeclaredPort {
  name?: string;
  containerPort: number;
  protocol: string;
}

export function declaredPorts(container: any): DeclaredPort[] {
  const ports = Array.isArray(container?.ports) ? container.ports : [];
  return ports
    .filter((p: any) => p && typeof p === 'object' && typeof p.containerPort === 'number')
    .map((p: any) => ({ name: typeof p.name === 'string' ? p.name : undefined, containerPort: p.containerPort, protocol: String(p.protocol ?? 'TCP').toUpperCase() }));
}

/** A probe's port written as a name (`http`) rather than a number: only those can be unknown. */
export function namedPortOf(probe: any): { field: 'httpGet' | 'tcpSocket'; name: string } | undefined {
  for (const field of ['httpGet', 'tcpSocket'] as const) {
    const port = probe?.[field]?.port;
    if (typeof port === 'string' && !/^\d+$/.test(port)) return { field, name: port };
  }
  return undefined;
}

/**
 * What the API server refuses in a probe's port written as a name, or undefined: a port name is at most 15
 * lowercase letters, digits and single hyphens inside, with a letter (`"8080"` and `HTTP` are refused, and the
 * workload with them).
 */
export function portNameFault(name: string): string | undefined {
  if (name.length > 15) return 'it is longer than 15 characters';
  if (!/^[a-z0-9-]+$/.test(name)) return 'it has characters other than lowercase letters, digits and hyphens';
  if (!/[a-z]/.test(name)) return 'it has no letter';
  if (/^-|-$|--/.test(name)) return 'it has a hyphen at an end, or two in a row';
  return undefined;
}

/**
 * Whether the kubelet can never run the probe: it names a port the container does not declare, and the kubelet
 * discards its every result (probe-port-unknown). Such a liveness probe kills nothing, a slow start included.
 */
export function portNeverResolves(container: any, probe: any): boolean {
  const named = namedPortOf(probe);
  return !!named && !declaredPorts(container).some((port) => port.name === named.name);
}

/** Ports that only serve scraping or debugging: a container with nothing else serves no traffic. */
const AUXILIARY_PORT = /^(metrics|.*-metrics|metrics-.*|prometheus|prom|monitoring|health.*|healthz|probes?|admin|debug|pprof|profiler|jmx|liveness|readiness|telemetry|stats)$/i;

export function isAuxiliaryPort(port: DeclaredPort): boolean {
  return !!port.name && AUXILIARY_PORT.test(port.name);
}

/** A readiness probe derived from what the container declares: HTTP on a port named http*, else TCP on the first TCP port. */
export function derivedReadinessProbe(container: any): Record<string, unknown> | undefined {
  const ports = declaredPorts(container).filter((p) => p.protocol === 'TCP' && !isAuxiliaryPort(p));
  const http = ports.find((p) => p.name && /^http/i.test(p.name) && !/^https/i.test(p.name));
  if (http) {
    const livenessPath = probeHandler(container.livenessProbe, container);
    const framework = livenessPath?.type === 'httpGet' ? FRAMEWORK_ENDPOINTS.find((f) => f.liveness === livenessPath.path) : undefined;
    return { httpGet: { path: framework?.readiness ?? '/', port: http.name }, periodSeconds: 10 };
  }
  const first = ports[0];
  if (first) return { tcpSocket: { port: first.name ?? first.containerPort }, periodSeconds: 10 };
  return undefined;
}

/** Paths that answer for the app's dependencies, not for the process itself. */
const DEPENDENCY_WORDS = /(^|[/_.-])(db|database|postgres(ql)?|mysql|mariadb|mongo(db)?|redis|kafka|rabbit(mq)?|amqp|cassandra|elastic(search)?|memcached?|upstream|downstream|dependenc(y|ies)|deps|backend|external)([/_.-]|$)/i;

const MICROPROFILE_IMAGE = /(open-?liberty|websphere-liberty|payara|wildfly|jboss|helidon|tomee|kumuluzee)/i;

/**
 * The framework whose aggregate health endpoint a probe of this container calls. A bare `/health`
 * counts as MicroProfile only with evidence (its readiness group in use, or a MicroProfile runtime
 * image): many other apps serve a plain `/health` that has no `/health/live` beside it.
 */
export function frameworkOfProbe(path: string, container: any): (typeof FRAMEWORK_ENDPOINTS)[number] | undefined {
  const framework = frameworkOf(path);
  if (framework?.name !== 'MicroProfile Health') return framework;
  const readiness = probeHandler(container?.readinessProbe, container);
  const evidence = (readiness?.type === 'httpGet' && readiness.path === framework.readiness) || MICROPROFILE_IMAGE.test(String(container?.image ?? ''));
  return evidence ? framework : undefined;
}

/**
 * Why a liveness path checks more than the process, or undefined when it does not: an aggregate
 * health endpoint, a readiness endpoint, or a path naming a dependency.
 */
export function dependencyCheckOf(requested: string, container: any): { reason: string; liveness?: string; framework?: string } | undefined {
  // The endpoint, whatever the query asks of it: `/readyz?verbose` is the readiness endpoint still.
  const path = requested.replace(/[?#].*$/s, '').replace(/(.)\/+$/, '$1');
  const framework = frameworkOfProbe(path, container);
  if (framework) return { reason: `${framework.name}'s aggregate health, which includes ${framework.aggregates}`, liveness: framework.liveness, framework: framework.name };
  if (frameworkOf(path)) return undefined;
  if (/(^|\/)(ready|readyz|readiness)$/i.test(path) || /\/health\/readiness$|\/q\/health\/ready$|\/health\/ready$/i.test(path)) return { reason: 'a readiness endpoint' };
  if (DEPENDENCY_WORDS.test(path)) return { reason: 'a path that names a dependency' };
  return undefined;
}

/** Images known to start slowly, with the start a typical install needs (an assumption a declaration overrides). */
const SLOW_STARTERS: { pattern: RegExp; name: string; seconds: number }[] = [
  { pattern: /(^|\/)tomcat(:|@|$)/i, name: 'Tomcat', seconds: 120 },
  { pattern: /(^|\/)(wildfly|jboss[^/:@]*)(:|@|$)/i, name: 'JBoss/WildFly', seconds: 180 },
  { pattern: /(^|\/)weblogic[^/:@]*(:|@|$)/i, name: 'WebLogic', seconds: 300 },
  { pattern: /(^|\/)websphere(-traditional)?(:|@|$)/i, name: 'WebSphere', seconds: 300 },
  { pattern: /(^|\/)elasticsearch(:|@|$)/i, name: 'Elasticsearch', seconds: 120 },
];

export function slowStarterOf(image: unknown): { name: string; seconds: number } | undefined {
  if (typeof image !== 'string') return undefined;
  const found = SLOW_STARTERS.find((s) => s.pattern.test(image));
  return found ? { name: found.name, seconds: found.seconds } : undefined;
}
