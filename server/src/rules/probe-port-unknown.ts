import { declaredPorts, namedPortOf, PROBE_FIELDS, type ProbeField } from '../manifest/probe';
import { containersOf, describeContainer } from '../manifest/workload';
import type { Rule } from './types';
import { exampleDeployment } from './example-workload';

/** What the kubelet does with a probe whose port it cannot resolve: it discards the result, so the probe's initial state sticks. */
const CONSEQUENCE: Record<ProbeField, string> = {
  startupProbe: 'the container never counts as started, so liveness and readiness never run and the pod never becomes ready',
  livenessProbe: 'the liveness probe never runs at all, so a hung container is never restarted',
  readinessProbe: 'the pod never becomes ready and never receives traffic',
};

export const probePortUnknown: Rule = {
  meta: {
    id: 'probe-port-unknown',
    severity: 'error',
    scenario: 'health-checks',
    title: 'A probe names a port the container does not declare',
    description:
      'A probe may name its port (`port: http`) instead of numbering it; the name must be one of the container\'s own `ports`. The API server accepts any name, but the kubelet cannot resolve an unknown one: it throws the probe\'s result away every time, so the probe keeps its initial state forever. A readiness probe then never passes, a startup probe never passes (and holds the other probes back), and a liveness probe silently does nothing.',
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
      for (const { container, path, name } of containersOf(resource, true)) {
        const ports = declaredPorts(container);
        for (const field of PROBE_FIELDS) {
          const named = namedPortOf(container[field]);
          if (!named || ports.some((p) => p.name === named.name)) continue;
          const declared = ports.filter((p) => p.name).map((p) => `${p.name} (${p.containerPort})`);
          report({
            resource,
            path: [...path, field, named.field, 'port'],
            target: 'value',
            message: `${describeContainer(resource, name)}: ${field} uses port "${named.name}", which the container does not declare (${declared.length ? `it names ${declared.join(', ')}` : 'it names no ports'}): ${CONSEQUENCE[field]}.`,
          });
        }
      }
    }
  },
};
