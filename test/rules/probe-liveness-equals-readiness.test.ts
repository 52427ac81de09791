import { probeLivenessEqualsReadiness } from '../../server/src/rules/probe-liveness-equals-readiness';
import { deploymentWith, indent, workloadYaml } from './probe-fixtures';
import { ruleTester } from './rule-tester';

const container = (probes: string, image = 'example/app:1.0') =>
  deploymentWith(
    indent(`- name: app
  image: ${image}
  ports:
    - name: http
      containerPort: 8080
${probes}`),
  );

const REFUSES = 'so the API server rejects it. It refuses the whole Deployment, which then runs no pod at all.';
const probe = (kind: string, handler: string, extra = '') => `  ${kind}:\n${handler}${extra}`;
const http = (path: string, port: string | number) => `    httpGet:\n      path: ${path}\n      port: ${port}\n`;

/** A Deployment whose init container `proxy` (always restarting when `sidecar`) probes /healthz for liveness and readiness. */
const withInit = (sidecar: boolean, liveness = '') =>
  workloadYaml(
    'Deployment',
    '  replicas: 2\n',
    `      initContainers:
        - name: proxy
          image: example/proxy:1
${sidecar ? '          restartPolicy: Always\n' : ''}          livenessProbe:
            httpGet:
              path: /healthz
              port: 9901
${liveness}          readinessProbe:
            httpGet:
              path: /healthz
              port: 9901
`,
    indent('- name: app\n  image: example/app:1.0\n'),
  );

const POD = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: goproxy\nspec:\n  containers:\n    - name: goproxy\n      image: registry.k8s.io/goproxy:0.1\n      readinessProbe:\n        tcpSocket: {port: 8080}\n      livenessProbe:\n        tcpSocket: {port: 8080}\n';

ruleTester(probeLivenessEqualsReadiness, {
  valid: [
    { name: 'readiness asks another host than liveness: two handlers', code: container(probe('livenessProbe', http('/healthz', 'http')) + probe('readinessProbe', `${http('/healthz', 'http')}      host: 10.0.0.1\n`)) },
    { name: 'liveness and readiness on different paths', code: container(probe('livenessProbe', http('/livez', 'http')) + probe('readinessProbe', http('/readyz', 'http'))) },
    { name: 'only a readiness probe', code: container(probe('readinessProbe', http('/ready', 'http'))) },
    {
      name: 'same handler, but liveness is three times as tolerant',
      code: container(probe('livenessProbe', http('/healthz', 'http'), '    failureThreshold: 9\n') + probe('readinessProbe', http('/healthz', 'http'))),
    },
    { name: 'an init container that runs to its end first: no restart storm of the app', code: withInit(false) },
    { name: 'same path on different ports', code: container(probe('livenessProbe', http('/healthz', 8081)) + probe('readinessProbe', http('/healthz', 'http'))) },
    {
      name: 'a timing in quotes on probes of two handlers is not this rule\'s to say (probe-startup-missing says it of liveness): it reports only probes that share one',
      code: container(probe('livenessProbe', http('/livez', 'http'), '    periodSeconds: "10"\n') + probe('readinessProbe', http('/readyz', 'http'), '    failureThreshold: "3"\n')),
    },
    {
      name: 'a readiness probe may ask for 2 successes in a row on a shared handler, and 0 timings are the defaults, not refused (liveness, 9 × 10 s, is three times as patient as 3 × 10 s)',
      code: container(probe('livenessProbe', http('/healthz', 'http'), '    failureThreshold: 9\n    successThreshold: 0\n') + probe('readinessProbe', http('/healthz', 8080), '    successThreshold: 2\n    periodSeconds: 0\n    timeoutSeconds: 0\n')),
    },
    {
      name: "a readiness probe's own grace period on probes of two handlers is not this rule's to say: it reports only probes that share one",
      code: container(probe('livenessProbe', http('/livez', 'http')) + probe('readinessProbe', http('/readyz', 'http'), '    terminationGracePeriodSeconds: 30\n')),
    },
    {
      name: "a readiness probe's own grace period with no value is not set, and is taken; a liveness probe's of 30 is taken (liveness, 9 × 10 s, is three times as patient)",
      code: container(probe('livenessProbe', http('/healthz', 'http'), '    failureThreshold: 9\n    terminationGracePeriodSeconds: 30\n') + probe('readinessProbe', http('/healthz', 8080), '    terminationGracePeriodSeconds:\n')),
    },
  ],
  invalid: [
    {
      name: 'a liveness successThreshold of 2 on a shared handler: the API server takes only 1, which the fix writes',
      code: container(probe('livenessProbe', http('/healthz', 'http'), '    failureThreshold: 9\n    successThreshold: 2 # two in a row\n') + probe('readinessProbe', http('/healthz', 8080))),
      findings: [{ at: '2', message: `Deployment web: livenessProbe's successThreshold 2 must be 1, ${REFUSES} A liveness probe acts on its first success: write 1.` }],
      output: container(probe('livenessProbe', http('/healthz', 'http'), '    failureThreshold: 9\n    successThreshold: 1 # two in a row\n') + probe('readinessProbe', http('/healthz', 8080))),
    },
    {
      name: 'a negative readiness timeout on a shared handler: refused, and no one value to write',
      code: container(probe('livenessProbe', http('/healthz', 'http')) + probe('readinessProbe', http('/healthz', 8080), '    timeoutSeconds: -1\n')),
      findings: [{ at: '-1', message: `Deployment web: readinessProbe's timeoutSeconds -1 is negative, ${REFUSES} Probe timings are 0 or more.` }],
      output: null,
    },
    {
      name: "a liveness probe's own grace period of 0 on a shared handler: refused, and no one value to write",
      code: container(probe('livenessProbe', http('/healthz', 'http'), '    terminationGracePeriodSeconds: 0\n') + probe('readinessProbe', http('/healthz', 8080))),
      findings: [{ at: '0', message: `Deployment web: livenessProbe's terminationGracePeriodSeconds 0 must be greater than 0, ${REFUSES} A probe's own grace period is 1 s or more; left out, the pod's terminationGracePeriodSeconds applies.` }],
      output: null,
    },
    {
      name: "a readiness probe's own grace period on a shared handler: refused whatever it is, and removed (the comment above it stays)",
      code: container(probe('livenessProbe', http('/healthz', 'http'), '    failureThreshold: 9\n') + probe('readinessProbe', http('/healthz', 8080), '    # as long as the drain allows\n    terminationGracePeriodSeconds: 30\n    periodSeconds: 10\n')),
      findings: [{ at: '30', message: `Deployment web: readinessProbe's terminationGracePeriodSeconds 30 is for liveness and startup probes only, ${REFUSES} A failing readiness probe kills nothing, so it has no grace period to give: remove it.` }],
      output: container(probe('livenessProbe', http('/healthz', 'http'), '    failureThreshold: 9\n') + probe('readinessProbe', http('/healthz', 8080), '    # as long as the drain allows\n    periodSeconds: 10\n')),
    },
    {
      name: "a readiness probe's own grace period in quotes: not written as the number, which is refused there too, but removed",
      code: container(probe('livenessProbe', http('/healthz', 'http'), '    failureThreshold: 9\n') + probe('readinessProbe', http('/healthz', 8080), '    terminationGracePeriodSeconds: "30"\n')),
      findings: [{ at: '"30"', message: /readinessProbe's terminationGracePeriodSeconds "30" is for liveness and startup probes only, so the API server rejects it\./ }],
      output: container(probe('livenessProbe', http('/healthz', 'http'), '    failureThreshold: 9\n') + probe('readinessProbe', http('/healthz', 8080))),
    },
    {
      name: 'a shared handler with a readiness period in quotes: the API server rejects the Deployment, which is said instead of comparing seconds worked out from defaults; the fix writes the number (and liveness, 9 × 10 s, is then three times as patient)',
      code: container(probe('livenessProbe', http('/healthz', 'http'), '    failureThreshold: 9\n') + probe('readinessProbe', http('/healthz', 8080), '    periodSeconds: "10"\n')),
      findings: [{ at: '"10"', message: 'Deployment web: readinessProbe\'s periodSeconds "10" is no integer, so the API server rejects it. It refuses the whole Deployment, which then runs no pod at all. Probe timings are whole numbers: write 10.' }],
      output: container(probe('livenessProbe', http('/healthz', 'http'), '    failureThreshold: 9\n') + probe('readinessProbe', http('/healthz', 8080), '    periodSeconds: 10\n')),
    },
    {
      name: 'a native sidecar (an init container that always restarts) is probed beside the app as its containers are',
      code: withInit(true),
      findings: [{ at: 'livenessProbe', message: /^Deployment web, container proxy: liveness equals readiness: outages restart all pods\. Both check GET \/healthz on port 9901/ }],
      output: withInit(true, '            failureThreshold: 9\n'),
    },
    {
      name: 'an empty host on one is the pod\'s IP, as no host on the other: one handler',
      code: container(probe('livenessProbe', http('/healthz', 'http')) + probe('readinessProbe', `${http('/healthz', 'http')}      host: ""\n`)),
      findings: [{ at: 'livenessProbe', message: /^Deployment web: liveness equals readiness: outages restart all pods\. Both check GET \/healthz on port 8080/ }],
    },
    {
      name: 'Spring Boot aggregate on both: split into the liveness and readiness groups',
      code: container(probe('livenessProbe', http('/actuator/health', 'http')) + probe('readinessProbe', http('/actuator/health', 'http'))),
      findings: [{ at: 'livenessProbe', severity: 'warning', message: 'Deployment web: liveness equals readiness: outages restart all pods. Both check GET /actuator/health on port 8080: when a dependency outage fails that check, readiness takes the pods out of their Services after 30 s, and after 30 s liveness has the kubelet restart every replica at once, a restart storm that cures nothing.' }],
      output: container(probe('livenessProbe', http('/actuator/health/liveness', 'http')) + probe('readinessProbe', http('/actuator/health/readiness', 'http'))),
    },
    {
      name: 'Quarkus /q/health on both',
      code: container(probe('livenessProbe', http('/q/health', 'http')) + probe('readinessProbe', http('/q/health', 'http'))),
      findings: [{ at: 'livenessProbe', message: /GET \/q\/health on port 8080/ }],
      output: container(probe('livenessProbe', http('/q/health/live', 'http')) + probe('readinessProbe', http('/q/health/ready', 'http'))),
    },
    {
      name: 'MicroProfile /health on both, known from an Open Liberty image',
      code: container(probe('livenessProbe', http('/health', 'http')) + probe('readinessProbe', http('/health', 'http')), 'icr.io/appcafe/open-liberty:24.0.0.1'),
      findings: [{ at: 'livenessProbe', message: /GET \/health on port 8080/ }],
      output: container(probe('livenessProbe', http('/health/live', 'http')) + probe('readinessProbe', http('/health/ready', 'http')), 'icr.io/appcafe/open-liberty:24.0.0.1'),
    },
    {
      name: 'a plain /health on both with nothing saying MicroProfile: no invented endpoints, liveness made tolerant',
      code: container(probe('livenessProbe', http('/health', 'http')) + probe('readinessProbe', http('/health', 'http'))),
      findings: [{ at: 'livenessProbe', message: /GET \/health on port 8080/ }],
      output: container(probe('livenessProbe', http('/health', 'http'), '    failureThreshold: 9\n') + probe('readinessProbe', http('/health', 'http'))),
    },
    {
      name: 'a named port and its number are the same handler; unknown framework: liveness made tolerant',
      code: container(probe('livenessProbe', http('/healthz', 'http')) + probe('readinessProbe', http('/healthz', 8080))),
      findings: [{ at: 'livenessProbe', message: /liveness equals readiness: outages restart all pods\. Both check GET \/healthz on port 8080: when a dependency outage fails that check/ }],
      output: container(probe('livenessProbe', http('/healthz', 'http'), '    failureThreshold: 9\n') + probe('readinessProbe', http('/healthz', 8080))),
    },
    {
      name: 'same TCP port, with timings kept and the threshold scaled to the readiness budget',
      code: container(probe('livenessProbe', '    tcpSocket:\n      port: http\n', '    periodSeconds: 5\n') + probe('readinessProbe', '    tcpSocket:\n      port: 8080\n', '    periodSeconds: 10\n')),
      findings: [{ at: 'livenessProbe', message: /Both check TCP port 8080: .* readiness takes the pods out of their Services after 30 s, and after 15 s liveness has the kubelet restart every replica at once/ }],
      output: container(probe('livenessProbe', '    tcpSocket:\n      port: http\n', '    periodSeconds: 5\n    failureThreshold: 18\n') + probe('readinessProbe', '    tcpSocket:\n      port: 8080\n', '    periodSeconds: 10\n')),
    },
    {
      name: 'a bare Pod is one pod: restarted, not a restart storm of replicas',
      code: POD,
      findings: [
        {
          at: 'livenessProbe',
          message:
            'Pod goproxy: liveness equals readiness: outages restart the pod. Both check TCP port 8080: when a dependency outage fails that check, readiness takes the pod out of its Services after 30 s, and after 30 s liveness has the kubelet restart it, which cures nothing.',
        },
      ],
      output: POD + '        failureThreshold: 9\n',
    },
  ],
});
