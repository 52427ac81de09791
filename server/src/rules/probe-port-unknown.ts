import { numberForDigits } from '../fixes/number-for-digits';
import { quotedDigits, shownValue, writtenNotInteger } from '../manifest/integer-field';
import type { Resource } from '../manifest/parse';
import type { Path } from '../manifest/path';
import { declaredPorts, namedPortOf, portNameFault, PROBE_FIELDS, type ProbeField } from '../manifest/probe';
import { describeContainer, runningContainersOf } from '../manifest/workload';
import type { Rule, RuleContext } from './types';
import { exampleDeployment } from './example-workload';

/** What the kubelet does with a probe whose port it cannot resolve: it discards the result, so the probe's initial state sticks. */
const CONSEQUENCE: Record<ProbeField, string> = {
  startupProbe: 'the container never counts as started, so liveness and readiness never run and the pod never becomes ready',
  livenessProbe: 'the liveness probe never runs at all, so a hung container is never restarted',
  readinessProbe: 'the pod never becomes ready and never receives traffic',
};

/** What a probe that always fails does: unlike an unresolved port, its failures count. */
/** What breaks, in a few words, for the finding's first sentence. */
const IN_SHORT: Record<ProbeField, string> = {
  startupProbe: 'the container never starts',
  livenessProbe: 'liveness never runs',
  readinessProbe: 'the pod never becomes ready',
};

const FAILS_ALWAYS: Record<ProbeField, string> = {
  startupProbe: 'the container is killed each time its failure threshold runs out, and never starts',
  livenessProbe: 'the kubelet restarts the container over and over',
  readinessProbe: 'the pod never becomes ready and never receives traffic',
};

export const probePortUnknown: Rule = {
  meta: {
    id: 'probe-port-unknown',
    severity: 'error',
    scenario: 'health-checks',
    title: 'A probe names a port the container does not declare',
    description:
      'A probe may name its port (`port: http`) instead of numbering it; the name must be one of the container\'s own `ports`. The API server accepts any well-formed name (lowercase, with a letter: it refuses `"8080"` and `HTTP`, and the workload with them, which is reported too), but the kubelet cannot resolve an unknown one: it throws the probe\'s result away every time, so the probe keeps its initial state forever. A readiness probe then never passes, a startup probe never passes (and holds the other probes back), and a liveness probe silently does nothing. A name that resolves to a UDP port is as bad the other way: the kubelet connects over TCP (HTTP and TCP checks alike), nothing answers, and every check fails, unless a TCP port of the same number is declared too (DNS serves 53 over both). A port the probe names whose `containerPort` is written as no integer (`containerPort: \"8080\"`) is not missing: the API server refuses it and the workload with it, which is reported instead, with the number written for digits.',
    example: exampleDeployment(
      `        - name: app
          image: example/orders:2.1
          ports:
            - name: web
              containerPort: 8080
          readinessProbe:
            httpGet:
              path: /ready
              port: http
`,
    ),
  },
  check({ resources, report }) {
    for (const resource of resources) {
      // A plain init container runs no probes (the API server refuses them there): what its ports resolve to matters to none.
      for (const { container, path, name } of runningContainersOf(resource)) {
        const ports = declaredPorts(container);
        const saidRefused = new Set<number>();
        for (const field of PROBE_FIELDS) {
          if (reportRefusedName(resource, container[field], [...path, field], `${describeContainer(resource, name)}: ${field}`, report)) continue;
          const named = namedPortOf(container[field]);
          if (!named) continue;
          const resolved = ports.find((p) => p.name === named.name);
          // The kubelet resolves a name whatever its protocol, then connects over TCP: only a TCP port of the same number answers.
          if (resolved?.protocol === 'UDP' && !ports.some((p) => p.containerPort === resolved.containerPort && p.protocol === 'TCP')) {
            report({
              resource,
              path: [...path, field, named.field, 'port'],
              target: 'value',
              message: `${describeContainer(resource, name)}: ${field} checks UDP port "${named.name}", so it always fails. Port "${named.name}" is ${resolved.containerPort}/UDP: ${named.field === 'httpGet' ? 'an HTTP' : 'a TCP'} check connects over TCP and can never reach a UDP port, so ${FAILS_ALWAYS[field]}.`,
            });
            continue;
          }
          if (resolved) continue;
          const refused = refusedPortIndex(container, named.name);
          if (refused >= 0) {
            if (!saidRefused.has(refused)) reportRefusedPort(resource, container.ports[refused].containerPort, [...path, 'ports', refused, 'containerPort'], `${describeContainer(resource, name)}: ${field}`, named.name, report);
            saidRefused.add(refused);
            continue;
          }
          const declared = ports.filter((p) => p.name).map((p) => `${p.name} (${p.containerPort})`);
          report({
            resource,
            path: [...path, field, named.field, 'port'],
            target: 'value',
            message: `${describeContainer(resource, name)}: ${field} uses undeclared port "${named.name}": ${IN_SHORT[field]}. ${declared.length ? `The container names ${declared.join(', ')}` : 'The container names no ports'}: ${CONSEQUENCE[field]}.`,
          });
        }
      }
    }
  },
};

/** Where among the container's ports the one of this name sits when its containerPort is written as no integer (`"8080"`), else -1. */
function refusedPortIndex(container: any, name: string): number {
  const ports: unknown[] = Array.isArray(container?.ports) ? container.ports : [];
  return ports.findIndex((port: any) => port?.name === name && writtenNotInteger(port.containerPort));
}

/** A port a probe names whose number is written as no integer: the API server refuses it, and the workload; no port is missing. */
function reportRefusedPort(resource: Resource, containerPort: unknown, path: Path, what: string, portName: string, report: RuleContext['report']): void {
  const digits = quotedDigits(containerPort);
  report({
    resource,
    path,
    target: 'value',
    message: `${what} uses port "${portName}", whose containerPort ${shownValue(containerPort)} is no integer, so the API server rejects it. It refuses the whole ${resource.kind}, which then runs no pod at all. A containerPort is a number${digits === undefined ? '' : `: write ${digits}`}.`,
    fixes: () => [numberForDigits(resource, path, containerPort)],
  });
}

/** A probe port written as a name the API server refuses (`"8080"`, `HTTP`): reported, with a number for digits; whether there was one. */
function reportRefusedName(resource: Resource, probe: any, path: Path, what: string, report: RuleContext['report']): boolean {
  for (const handler of ['httpGet', 'tcpSocket'] as const) {
    const port: unknown = probe?.[handler]?.port;
    const fault = typeof port === 'string' ? portNameFault(port) : undefined;
    if (!fault) continue;
    report({
      resource,
      path: [...path, handler, 'port'],
      target: 'value',
      message: `${what}'s port "${port}" is no port name the API server takes (${fault}): it rejects the whole ${resource.kind}. A probe's port is a number, or the name of one of the container's ports: lowercase, with a letter, 15 characters at most.`,
      fixes: () => [numberForDigits(resource, [...path, handler, 'port'], port, 'the port')],
    });
    return true;
  }
  return false;
}
