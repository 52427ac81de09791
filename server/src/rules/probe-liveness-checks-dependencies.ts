import { setField } from '../fixes/yaml-edit';
import { localPathRequested, remoteHostChecked } from '../manifest/probe-command';
import { dependencyCheckOf, failureBudgetSeconds, probeHandler } from '../manifest/probe';
import { livenessEqualsReadiness } from './probe-liveness-equals-readiness';
import { runningContainersOf, describeContainer } from '../manifest/workload';
import type { Rule } from './types';
import { exampleDeployment } from './example-workload';

const REPLICAS = { restarts: 'every replica', failsAndRestarts: 'fails it on every replica and the kubelet restarts them all' };
const BARE_POD = { restarts: 'its container', failsAndRestarts: 'fails it and the kubelet restarts the container' };

/** " longer than 30 s", the probe's failure budget; nothing on timings the API server refuses (probe-startup-missing and probe-liveness-equals-readiness say so). */
function longerThan(probe: any): string {
  const budget = failureBudgetSeconds(probe, 'livenessProbe');
  return budget === undefined ? '' : ` longer than ${budget} s`;
}

export const probeLivenessChecksDependencies: Rule = {
  meta: {
    id: 'probe-liveness-checks-dependencies',
    severity: 'warning',
    scenario: 'health-checks',
    title: 'Liveness probe checks dependencies',
    description:
      "A liveness probe answers one question: is this process stuck beyond repair? When it calls an aggregate health endpoint (Spring Boot's `/actuator/health`, Quarkus' `/q/health`, MicroProfile's `/health`), a readiness endpoint, or a path that names a dependency, or runs a command that reaches another host (`pg_isready -h db`, `mysqladmin ping -h …`, `redis-cli -h … ping`, `curl` or `wget` of a URL that is not localhost, `nc host port`), or curls such an endpoint of its own pod (`curl -f http://localhost:8080/readyz`), a database or broker outage fails it on every replica at once, and the kubelet restarts them all. A restart cannot cure a dependency outage: the pods come back to the same outage, lose their caches and connections, and pile load on the dependency as it recovers.",
    fix: "Points the liveness probe at the framework's liveness endpoint (`/actuator/health/liveness`, `/q/health/live`, `/health/live`). Other paths have no automatic fix: point liveness at an endpoint that checks only the process.",
    example: exampleDeployment(
      `        - name: app
          image: example/orders:2.1
          livenessProbe:
            httpGet:
              path: /actuator/health
              port: 8080
          readinessProbe:
            httpGet:
              path: /actuator/health/readiness
              port: 8080
`,
    ),
  },
  check({ resources, report }) {
    for (const resource of resources) {
      // A bare Pod is one pod: no replicas to restart at once.
      const { restarts, failsAndRestarts } = resource.kind === 'Pod' ? BARE_POD : REPLICAS;
      for (const { container, path, name } of runningContainersOf(resource)) {
        const remote = remoteHostChecked(container.livenessProbe?.exec?.command);
        if (remote) {
          report({
            resource,
            path: [...path, 'livenessProbe', 'exec', 'command'],
            message: `${describeContainer(resource, name)}: liveness checks ${remote.host}, so its outage restarts ${restarts}. Liveness runs ${remote.program} against ${remote.host}, another host, so it checks a dependency, not this process; an outage of ${remote.host}${longerThan(container.livenessProbe)} ${failsAndRestarts}, which cannot cure the outage. Check ${remote.host} in the readiness probe, and let liveness check only the process (localhost).`,
          });
          continue;
        }
        const liveness = probeHandler(container.livenessProbe, container);
        // An exec probe that curls the pod itself checks the endpoint it asks for, as an httpGet probe on it would.
        const httpGet = liveness?.type === 'httpGet' ? liveness : undefined;
        const requested = httpGet ? httpGet.path : localPathRequested(container.livenessProbe?.exec?.command);
        if (requested === undefined) continue;
        const check = dependencyCheckOf(requested, container);
        if (!check) continue;
        // probe-liveness-equals-readiness splits a framework endpoint both probes share, when it reports them (a
        // liveness three times as patient as readiness it leaves alone, and still checks the dependencies here).
        if (check.framework && livenessEqualsReadiness(resource, container)) continue;
        const pathField = httpGet ? [...path, 'livenessProbe', 'httpGet', 'path'] : [...path, 'livenessProbe', 'exec', 'command'];
        // A URL inside a command is the team's to change: only an httpGet path is rewritten.
        const fix = check.liveness && httpGet
          ? { title: `Use ${check.framework}'s liveness endpoint ${check.liveness}`, preferred: true, edits: setField(resource, pathField, check.liveness) ?? [] }
          : undefined;
        report({
          resource,
          path: pathField,
          target: httpGet ? 'value' : undefined,
          message: `${describeContainer(resource, name)}: liveness checks dependencies, so their outage restarts ${restarts}. It calls ${requested}, ${check.reason}; a dependency outage${longerThan(container.livenessProbe)} ${failsAndRestarts}, which cannot cure the outage. ${check.liveness ? `Use ${check.liveness}.` : 'Point liveness at an endpoint that checks only the process.'}`,
          fixes: [fix],
        });
      }
    }
  },
};
