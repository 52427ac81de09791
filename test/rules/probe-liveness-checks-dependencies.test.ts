import { probeLivenessChecksDependencies } from '../../server/src/rules/probe-liveness-checks-dependencies';
import { deploymentWith, indent, workloadYaml } from './probe-fixtures';
import { ruleTester } from './rule-tester';

/** A liveness probe that runs `command` (a YAML flow sequence). */
const runs = (command: string) => deploymentWith(indent(`- name: db-client\n  image: example/app:1.0\n  livenessProbe:\n    exec:\n      command: ${command}\n`));
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
    { name: 'pg_isready on the local socket', code: runs('[pg_isready, -U, postgres]') },
    { name: 'curl of the pod\'s own liveness endpoint', code: runs('[curl, -f, "http://localhost:8080/healthz"]') },
    { name: 'pg_isready against localhost', code: runs('[pg_isready, -h, localhost]') },
    { name: 'redis-cli ping on 127.0.0.1', code: runs('[redis-cli, -h, 127.0.0.1, ping]') },
    { name: 'curl of the pod itself', code: runs('[sh, -c, "curl -fsS http://localhost:8080/healthz"]') },
    { name: 'wget of the pod\'s own address from the environment', code: runs('[sh, -c, "wget -q -O- http://$POD_IP:8080/live"]') },
    { name: 'nc to a local port', code: runs('[nc, -z, 127.0.0.1, "5432"]') },
    { name: 'a file check', code: runs('[cat, /tmp/healthy]') },
    { name: 'programs named like members of every object, given a URL (valueOf was read as a database client)', code: runs('[/app/bin/valueOf, "http://db:5432/"]') + '---\n' + runs('[hasOwnProperty, --host, db]').replace('name: web', 'name: web-2') },
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
      name: 'a liveness threshold in quotes gives no seconds to quote (the API server refuses it, which probe-startup-missing and probe-liveness-equals-readiness say)',
      code: app('/actuator/health', '    failureThreshold: "5"\n'),
      findings: [{ at: '/actuator/health', message: /^Deployment web: liveness checks dependencies, so their outage restarts every replica\. .*; a dependency outage fails it on every replica/ }],
    },
    {
      name: 'pg_isready -h db checks the database, not the process',
      code: runs('[pg_isready, -h, db, -p, "5432"]'),
      findings: [
        {
          at: 'command',
          severity: 'warning',
          message:
            'Deployment web: liveness checks db, so its outage restarts every replica. Liveness runs pg_isready against db, another host, so it checks a dependency, not this process; an outage of db longer than 30 s fails it on every replica and the kubelet restarts them all, which cannot cure the outage. Check db in the readiness probe, and let liveness check only the process (localhost).',
        },
      ],
      output: null,
    },
    { name: 'mysqladmin ping with -hHOST in a shell', code: runs('[sh, -c, "mysqladmin ping -hmysql.shop.svc -uroot"]'), findings: [{ message: /runs mysqladmin against mysql\.shop\.svc, another host/ }] },
    { name: 'redis-cli --host', code: runs('[redis-cli, --host=cache, ping]'), findings: [{ message: /runs redis-cli against cache/ }] },
    { name: 'curl of another service', code: runs('[curl, -f, "http://payments:8080/health"]'), findings: [{ message: /runs curl against payments/ }] },
    { name: 'wget of another service', code: runs('[/bin/sh, -c, "wget -q --spider https://auth.example.com/ping"]'), findings: [{ message: /runs wget against auth\.example\.com/ }] },
    { name: 'nc host port', code: runs('[sh, -c, "nc -z -w 2 kafka 9092"]'), findings: [{ message: /runs nc against kafka/ }] },
    {
      name: 'Spring Boot aggregate /actuator/health',
      code: app('/actuator/health # everything'),
      findings: [
        {
          at: '/actuator/health',
          severity: 'warning',
          message:
            "Deployment web: liveness checks dependencies, so their outage restarts every replica. It calls /actuator/health, Spring Boot's aggregate health, which includes the database and every other HealthIndicator; a dependency outage longer than 30 s fails it on every replica and the kubelet restarts them all, which cannot cure the outage. Use /actuator/health/liveness.",
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
    {
      name: 'both probes on the aggregate, liveness three times as patient: probe-liveness-equals-readiness leaves it, so it is reported here',
      code: app('/actuator/health', '    failureThreshold: 9\n  readinessProbe:\n    httpGet:\n      path: /actuator/health\n      port: 8080\n'),
      findings: [{ at: '/actuator/health', message: /calls \/actuator\/health, Spring Boot's aggregate health.*longer than 90 s/ }],
      output: app('/actuator/health/liveness', '    failureThreshold: 9\n  readinessProbe:\n    httpGet:\n      path: /actuator/health\n      port: 8080\n'),
    },
    {
      name: 'a native sidecar (an init container that always restarts) runs beside the app and is probed as it is',
      code: workloadYaml('Deployment', '  replicas: 2\n', indent('initContainers:\n  - name: proxy\n    image: example/proxy:1\n    restartPolicy: Always\n    livenessProbe:\n      httpGet:\n        path: /readyz\n        port: 9901\n', 6), indent('- name: app\n  image: example/app:1.0\n')),
      findings: [{ at: '/readyz', message: /^Deployment web, container proxy: liveness checks dependencies/ }],
      output: null,
    },
    { name: 'an exec probe that curls the readiness endpoint of its own pod checks what it checks (no fix: a URL in a command is the team\'s to change)', code: runs('[curl, -fsS, "http://localhost:8080/readyz"]'), findings: [{ at: 'command', message: /calls \/readyz, a readiness endpoint;/ }], output: null },
    {
      name: 'a bare Pod is one pod: its container is restarted, no replicas',
      code: 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: client\nspec:\n  containers:\n    - name: client\n      image: example/app:1.0\n      livenessProbe:\n        exec:\n          command: [pg_isready, -h, db.shop.svc]\n',
      findings: [{ message: /^Pod client: liveness checks db\.shop\.svc, so its outage restarts its container\. .* longer than 30 s fails it and the kubelet restarts the container, which cannot cure the outage\./ }],
      output: null,
    },
    { name: 'curl of a URL with no scheme, which curl fetches over HTTP (`localhost:8080/readyz`)', code: runs('[sh, -c, "curl -fsS localhost:8080/readyz"]'), findings: [{ message: /calls \/readyz, a readiness endpoint;/ }], output: null },
    { name: 'wget of a URL with no scheme, after an option that takes a value', code: runs('[wget, -T, "2", -qO-, "127.0.0.1:8080/ready"]'), findings: [{ message: /calls \/ready, a readiness endpoint;/ }], output: null },
    { name: 'wget of Spring Boot\'s aggregate on 127.0.0.1, in a shell', code: runs('[sh, -c, "wget -qO- http://127.0.0.1:8080/actuator/health"]'), findings: [{ message: /calls \/actuator\/health, Spring Boot's aggregate health/ }], output: null },
    { name: 'a readiness endpoint with a trailing slash and a query (`/readyz/?verbose`): the endpoint is the same', code: app('/readyz/?verbose'), findings: [{ at: '/readyz/?verbose', message: /a readiness endpoint;/ }], output: null },
    { name: 'a readiness endpoint asked with a query (`/readyz?verbose`): the endpoint is the same', code: app('/readyz?verbose'), findings: [{ at: '/readyz?verbose', message: /calls \/readyz\?verbose, a readiness endpoint;/ }], output: null },
    {
      name: 'an aggregate health asked with a query: the same aggregate',
      code: app('"/actuator/health?probe=liveness"'),
      findings: [{ at: '"/actuator/health?probe=liveness"', message: /calls \/actuator\/health\?probe=liveness, Spring Boot's aggregate health/ }],
      output: app('"/actuator/health/liveness"'),
    },
    { name: 'a readiness endpoint: no automatic fix', code: app('/readyz'), findings: [{ at: '/readyz', message: /calls \/readyz, a readiness endpoint;.*Point liveness at an endpoint that checks only the process\./ }], output: null },
    { name: 'a path naming the database', code: app('/health/db'), findings: [{ at: '/health/db', message: /a path that names a dependency/ }], output: null },
  ],
});
