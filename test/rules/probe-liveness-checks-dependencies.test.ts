import { probeLivenessChecksDependencies } from '../../server/src/rules/probe-liveness-checks-dependencies';
import { deploymentWith, indent } from './probe-fixtures';
import { ruleTester } from './rule-tester';

const app = (liveness: string, extra = '', image = 'example/app:1.0') =>
  deploymentWith(
    indent(`- name: app
  image: ${image}
  livenessProbe:
    httpGet:
      path: ${liveness}
      port: 8080
${extra}`),
  );

ruleTester(probeLivenessChecksDependencies, {
  valid: [
    { name: 'Spring Boot liveness group', code: app('/actuator/health/liveness') },
    { name: 'Quarkus liveness', code: app('/q/health/live') },
    { name: 'a plain /healthz', code: app('/healthz') },
    { name: 'a /health that is not MicroProfile (no readiness group, plain image)', code: app('/health') },
    {
      name: 'both probes on the aggregate: probe-liveness-equals-readiness splits them',
      code: app('/actuator/health', '  readinessProbe:\n    httpGet:\n      path: /actuator/health\n      port: 8080\n'),
    },
    {
      name: 'suppressed by a comment above the path',
      code: app('/ready').replace('      path: /ready', '      # kube-resilience-ignore probe-liveness-checks-dependencies -- /ready only checks the process here\n              path: /ready'),
    },
    { name: 'a TCP liveness probe', code: deploymentWith(indent('- name: app\n  image: a\n  livenessProbe:\n    tcpSocket:\n      port: 8080\n')) },
  ],
  invalid: [
    {
      name: 'Spring Boot aggregate /actuator/health',
      code: app('/actuator/health # everything'),
      findings: [
        {
          at: '/actuator/health',
          severity: 'warning',
          message:
            "Deployment web, container app: liveness calls /actuator/health, Spring Boot's aggregate health, which includes the database and every other HealthIndicator; a dependency outage longer than 30 s fails it on every replica and the kubelet restarts them all, which cannot cure the outage. Use /actuator/health/liveness.",
        },
      ],
      output: app('/actuator/health/liveness # everything'),
    },
    {
      name: 'Quarkus aggregate /q/health, with its timing in the message',
      code: app('/q/health', '    periodSeconds: 20\n    failureThreshold: 5\n'),
      findings: [{ at: '/q/health', message: /Quarkus's aggregate health, which includes its readiness checks.*longer than 100 s.*Use \/q\/health\/live\./ }],
      output: app('/q/health/live', '    periodSeconds: 20\n    failureThreshold: 5\n'),
    },
    {
      name: 'MicroProfile /health, known from the readiness group',
      code: app('/health', '  readinessProbe:\n    httpGet:\n      path: /health/ready\n      port: 8080\n'),
      findings: [{ at: '/health', message: /MicroProfile Health's aggregate health, which includes every readiness check/ }],
      output: app('/health/live', '  readinessProbe:\n    httpGet:\n      path: /health/ready\n      port: 8080\n'),
    },
    {
      name: 'MicroProfile /health, known from an Open Liberty image',
      code: app('/health', '', 'icr.io/appcafe/open-liberty:24.0.0.1'),
      findings: [{ at: '/health', message: /MicroProfile/ }],
      output: app('/health/live', '', 'icr.io/appcafe/open-liberty:24.0.0.1'),
    },
    { name: 'a readiness endpoint: no automatic fix', code: app('/readyz'), findings: [{ at: '/readyz', message: /calls \/readyz, a readiness endpoint;.*Point liveness at an endpoint that checks only the process\./ }], output: null },
    { name: 'a path naming the database', code: app('/health/db'), findings: [{ at: '/health/db', message: /a path that names a dependency/ }], output: null },
  ],
});
