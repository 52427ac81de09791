import { setField } from '../fixes/yaml-edit';
import { describeHandler, failureBudgetSeconds, frameworkOfProbe, LIVENESS_TOLERANCE, probeHandler, probeTimings, sameHandler, type ProbeHandler, type ProbeTimings } from '../manifest/probe';
import { runningContainersOf, describeContainer, isHelmHook, type ContainerRef } from '../manifest/workload';
import type { Resource } from '../manifest/parse';
import { refusedTimingReport } from './refused-probe-timing';
import type { Report, Rule } from './types';
import { exampleDeployment } from './example-workload';


/** The liveness probe's handler, when readiness runs the very same one (Helm hooks left out: they serve nothing). */
function sharedHandler(resource: Resource, container: any): ProbeHandler | undefined {
  const liveness = probeHandler(container.livenessProbe, container);
  return !isHelmHook(resource) && liveness && sameHandler(liveness, probeHandler(container.readinessProbe, container)) ? liveness : undefined;
}

/**
 * What this rule reports of the container, undefined when it reports nothing: its liveness and readiness probes share
 * a handler and liveness gives up less than three times later (a liveness that patient restarts only a process stuck
 * for long).
 */
export function livenessEqualsReadiness(resource: Resource, container: any): { liveness: ProbeHandler; livenessBudget: number; readinessBudget: number; timings: ProbeTimings } | undefined {
  const liveness = sharedHandler(resource, container);
  const timings = probeTimings(container.livenessProbe, 'livenessProbe');
  const livenessBudget = failureBudgetSeconds(container.livenessProbe, 'livenessProbe');
  const readinessBudget = failureBudgetSeconds(container.readinessProbe, 'readinessProbe');
  // Timings the API server refuses are no seconds to compare (refusedSharedTiming says so).
  if (!liveness || !timings || livenessBudget === undefined || readinessBudget === undefined) return undefined;
  return livenessBudget < LIVENESS_TOLERANCE * readinessBudget ? { liveness, livenessBudget, readinessBudget, timings } : undefined;
}

/** Probes sharing a handler with a timing the API server refuses: this rule says so, rather than compare seconds neither has. */
export function refusedSharedTiming(resource: Resource, ref: ContainerRef): Report | undefined {
  if (!sharedHandler(resource, ref.container)) return undefined;
  return refusedTimingReport(resource, ref, 'livenessProbe') ?? refusedTimingReport(resource, ref, 'readinessProbe');
}

export const probeLivenessEqualsReadiness: Rule = {
  meta: {
    id: 'probe-liveness-equals-readiness',
    severity: 'warning',
    scenario: 'health-checks',
    title: 'Liveness and readiness probes check the same thing',
    description:
      'When liveness and readiness call the same handler, anything that makes the pod unready (a database outage, a slow dependency, an overload) also makes the kubelet restart it, on every replica at once. Restarts cure nothing there and throw away warm caches and sessions; readiness alone would have taken the pods out of the Service until the dependency came back. When one of the two probes has a timing the API server refuses, that is reported instead, and no seconds are compared: a timing written as no integer (`periodSeconds: "10"`; digits in quotes are written as the number), a negative one (0 is the default, and taken), a liveness `successThreshold` other than 1 (1 is written), a probe\'s own `terminationGracePeriodSeconds` below 1, or one on the readiness probe at all (a readiness probe kills nothing; it is removed). It rejects the workload, which then runs no pod at all.',
    fix: "For Spring Boot, Quarkus and MicroProfile endpoints, points each probe at the framework's own liveness and readiness group; otherwise makes liveness three times more tolerant than readiness.",
    example: exampleDeployment(
      `        - name: app
          image: example/orders:2.1
          livenessProbe:
            httpGet:
              path: /actuator/health
              port: 8080
          readinessProbe:
            httpGet:
              path: /actuator/health
              port: 8080
`,
    ),
  },
  check({ resources, report }) {
    for (const resource of resources) {
      if (isHelmHook(resource)) continue;
      for (const ref of runningContainersOf(resource)) {
        const { container, path, name } = ref;
        const refused = refusedSharedTiming(resource, ref);
        if (refused) {
          report(refused);
          continue;
        }
        const reported = livenessEqualsReadiness(resource, container);
        if (!reported) continue;
        const { liveness, livenessBudget, readinessBudget, timings } = reported;
        const tolerantThreshold = Math.max(timings.failureThreshold * LIVENESS_TOLERANCE, Math.ceil((LIVENESS_TOLERANCE * readinessBudget) / timings.periodSeconds));
        const framework = liveness.type === 'httpGet' ? frameworkOfProbe(liveness.path, container) : undefined;
        const fixes = () => {
          const offered = [];
          if (framework) {
            const edits = [
              ...(setField(resource, [...path, 'livenessProbe', 'httpGet', 'path'], framework.liveness) ?? []),
              ...(setField(resource, [...path, 'readinessProbe', 'httpGet', 'path'], framework.readiness) ?? []),
            ];
            offered.push({ title: `Use ${framework.name}'s ${framework.liveness} and ${framework.readiness}`, preferred: true, edits });
          }
          offered.push({
            title: `Make liveness tolerant (failureThreshold: ${tolerantThreshold}, ${tolerantThreshold * timings.periodSeconds} s)`,
            preferred: !framework,
            edits: setField(resource, [...path, 'livenessProbe', 'failureThreshold'], tolerantThreshold) ?? [],
          });
          return offered;
        };
        // A bare Pod is one pod: no replicas to restart at once.
        const outcome =
          resource.kind === 'Pod'
            ? `readiness takes the pod out of its Services after ${readinessBudget} s, and after ${livenessBudget} s liveness has the kubelet restart it, which cures nothing`
            : `readiness takes the pods out of their Services after ${readinessBudget} s, and after ${livenessBudget} s liveness has the kubelet restart every replica at once, a restart storm that cures nothing`;
        report({
          resource,
          path: [...path, 'livenessProbe'],
          message: `${describeContainer(resource, name)}: liveness equals readiness: outages restart ${resource.kind === 'Pod' ? 'the pod' : 'all pods'}. Both check ${describeHandler(liveness)}: when a dependency outage fails that check, ${outcome}.`,
          fixes,
        });
      }
    }
  },
};
