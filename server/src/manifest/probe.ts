/** The parts of a probe that decide what it checks, with named ports resolved against the container. */
export type ProbeHandler =
  | { type: 'httpGet'; path: string; port: string; host?: string; scheme: string }
  | { type: 'tcpSocket'; port: string }
  | { type: 'exec'; command: string }
  | { type: 'grpc'; port: string; service: string };

export const PROBE_DEFAULTS = { initialDelaySeconds: 0, periodSeconds: 10, failureThreshold: 3, timeoutSeconds: 1, successThreshold: 1 };

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
    return { type: 'httpGet', path: normalisePath(h.path), port: resolvePort(h.port, container), host: h.host, scheme: String(h.scheme ?? 'HTTP').toUpperCase() };
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
    case 'exec':
      return `exec ${(JSON.parse(handler.command) as string[]).join(' ')}`;
    case 'grpc':
      return `gRPC port ${handler.port}${handler.service ? ` service ${handler.service}` : ''}`;
  }
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

export function probeTimings(probe: any): typeof PROBE_DEFAULTS {
  return {
    initialDelaySeconds: numberOr(probe?.initialDelaySeconds, PROBE_DEFAULTS.initialDelaySeconds),
    periodSeconds: numberOr(probe?.periodSeconds, PROBE_DEFAULTS.periodSeconds),
    failureThreshold: numberOr(probe?.failureThreshold, PROBE_DEFAULTS.failureThreshold),
    timeoutSeconds: numberOr(probe?.timeoutSeconds, PROBE_DEFAULTS.timeoutSeconds),
    successThreshold: numberOr(probe?.successThreshold, PROBE_DEFAULTS.successThreshold),
  };
}

/** Seconds of consecutive failure before the probe acts (restart for liveness, unready for readiness). */
export function failureBudgetSeconds(probe: any): number {
  const t = probeTimings(probe);
  return t.failureThreshold * t.periodSeconds;
}

/** Health endpoints of frameworks that split liveness from readiness. */
export const FRAMEWORK_ENDPOINTS: { name: string; aggregate: RegExp; liveness: string; readiness: string }[] = [
  { name: 'Spring Boot', aggregate: /^\/actuator\/health$/, liveness: '/actuator/health/liveness', readiness: '/actuator/health/readiness' },
  { name: 'Quarkus', aggregate: /^\/q\/health$/, liveness: '/q/health/live', readiness: '/q/health/ready' },
  { name: 'MicroProfile Health', aggregate: /^\/health$/, liveness: '/health/live', readiness: '/health/ready' },
];

export function frameworkOf(path: string): (typeof FRAMEWORK_ENDPOINTS)[number] | undefined {
  return FRAMEWORK_ENDPOINTS.find((f) => f.aggregate.test(path));
}
