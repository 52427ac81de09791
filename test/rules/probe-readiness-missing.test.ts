import { probeReadinessMissing } from '../../server/src/rules/probe-readiness-missing';
import { deploymentWith, indent, SERVICE_WEB } from './probe-fixtures';
import { ruleTester } from './rule-tester';

const app = (body: string) => deploymentWith(indent(`- name: app\n  image: example/app:1.0\n${body}`));
const ports = (...list: string[]) => `  ports:\n${list.map((p) => `    - ${p}\n`).join('')}`;

/** A Deployment whose init container `tls` declares port https 8443 (`init` adds to it) beside a worker (`worker` adds to it). */
function withTlsInit(init: string, worker = ''): string {
  const tls = indent(`- name: tls\n  image: example/tls-terminator:1\n  ports:\n    - {name: https, containerPort: 8443}\n${init}`);
  return deploymentWith(indent(`- name: worker\n  image: example/worker:1\n${worker}`)).replace('      containers:\n', `      initContainers:\n${tls}      containers:\n`);
}

/** A container web whose limits end in a commented-out entry (`then` written after it), and a sidecar after it. */
function twoContainers(then: string): string {
  return deploymentWith(
    indent(`- name: web
  image: nginx
  ports:
    - containerPort: 80
  resources:
    limits:
      memory: 1Gi
      # cpu: "1"
${then}- name: side
  image: busybox
  readinessProbe: {exec: {command: [true]}}
`),
  );
}

ruleTester(probeReadinessMissing, {
  valid: [
    { name: 'a readiness probe is there', code: app(ports('{name: http, containerPort: 8080}') + '  readinessProbe:\n    httpGet:\n      path: /ready\n      port: http\n') },
    { name: 'no ports and no Service: serves nothing', code: app('  args: [worker]\n') },
    { name: 'only a metrics port', code: app(ports('{name: metrics, containerPort: 9090}')) },
    {
      name: 'a Job serves nothing',
      code: 'apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: migrate\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n        - name: migrate\n          image: example/migrate\n          ports:\n            - containerPort: 8080\n',
    },
    {
      name: 'a DaemonSet node agent no Service selects',
      code: 'apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: agent\nspec:\n  selector: {matchLabels: {app: agent}}\n  template:\n    metadata: {labels: {app: agent}}\n    spec:\n      containers:\n        - name: agent\n          image: example/agent\n          ports:\n            - containerPort: 6666\n',
    },
    {
      name: 'a sidecar proxy beside the app, and an app whose port the Service does not target',
      code: deploymentWith(
        indent(`- name: app
  image: example/app:1.0
  ports:
    - {name: admin, containerPort: 9000}
- name: kube-rbac-proxy
  image: quay.io/brancz/kube-rbac-proxy:v0.18.0
  ports:
    - {name: https, containerPort: 8443}
`),
      ),
      files: { 'service.yaml': SERVICE_WEB.replace('targetPort: http', 'targetPort: https') },
    },
    {
      name: 'a plain init container declares the port the Service targets: it has exited before the pod serves',
      code: withTlsInit('', '  readinessProbe:\n    tcpSocket: {port: 9000}\n  ports:\n    - {containerPort: 9000}\n'),
      files: { 'service.yaml': SERVICE_WEB.replace('targetPort: http', 'targetPort: https') },
    },
  ],
  invalid: [
    {
      name: 'a container whose last field ends in a deeper comment gets its probe below that comment, not in the next container',
      code: twoContainers(''),
      findings: [{ at: 'web' }],
      output: twoContainers('  readinessProbe:\n    tcpSocket:\n      port: 80\n    periodSeconds: 10\n'),
    },
    {
      name: 'a native sidecar (an init container that always restarts) takes the traffic: it is the one asked for a probe, not the app beside it',
      code: withTlsInit('  restartPolicy: Always\n'),
      files: { 'service.yaml': SERVICE_WEB.replace('targetPort: http', 'targetPort: https') },
      findings: [{ at: 'tls', message: /^Deployment web, container tls: no readiness probe: traffic comes before it is ready\. Service web sends it traffic on port https 8443:/ }],
      output: withTlsInit('  restartPolicy: Always\n  readinessProbe:\n    tcpSocket:\n      port: https\n    periodSeconds: 10\n'),
    },
    {
      name: 'a port named http: an httpGet readiness probe on it',
      code: app(ports('{name: http, containerPort: 8080}')),
      findings: [
        {
          at: 'app',
          line: 16,
          severity: 'warning',
          message:
            'Deployment web: no readiness probe: traffic comes before it is ready. It declares port http 8080; no Service in view selects it, so one elsewhere is assumed: the container receives requests as soon as its process starts, on every rollout and every restart after a drain or node failure, and keeps receiving them while it cannot answer.',
        },
      ],
      output: app(ports('{name: http, containerPort: 8080}') + '  readinessProbe:\n    httpGet:\n      path: /\n      port: http\n    periodSeconds: 10\n'),
    },
    {
      name: 'selected by a Service on its named port; the framework liveness path gives the readiness path',
      code: app(ports('{name: http-api, containerPort: 8080}') + '  livenessProbe:\n    httpGet:\n      path: /actuator/health/liveness\n      port: http-api\n'),
      files: { 'service.yaml': SERVICE_WEB.replace('targetPort: http', 'targetPort: http-api') },
      findings: [{ at: 'app', message: /no readiness probe: traffic comes before it is ready\. Service web sends it traffic on port http-api 8080:/ }],
      output: app(
        ports('{name: http-api, containerPort: 8080}') +
          '  livenessProbe:\n    httpGet:\n      path: /actuator/health/liveness\n      port: http-api\n  readinessProbe:\n    httpGet:\n      path: /actuator/health/readiness\n      port: http-api\n    periodSeconds: 10\n',
      ),
    },
    {
      name: 'no http port: TCP on the first TCP port, skipping UDP',
      code: app(ports('{containerPort: 53, protocol: UDP}', '{containerPort: 6379}')),
      findings: [{ at: 'app', message: /declares port 6379/ }],
      output: app(ports('{containerPort: 53, protocol: UDP}', '{containerPort: 6379}') + '  readinessProbe:\n    tcpSocket:\n      port: 6379\n    periodSeconds: 10\n'),
    },
    {
      name: 'the probe derived is the liveness probe\'s own handler: it gives up in a third of liveness\'s time, so the two are not one probe (probe-liveness-equals-readiness then changed the liveness probe)',
      code: app(ports('{containerPort: 11211}') + '  livenessProbe:\n    tcpSocket: {port: 11211}\n'),
      findings: [{ at: 'app', message: /declares port 11211/ }],
      output: app(ports('{containerPort: 11211}') + '  livenessProbe:\n    tcpSocket: {port: 11211}\n  readinessProbe:\n    tcpSocket:\n      port: 11211\n    periodSeconds: 10\n    failureThreshold: 1\n'),
    },
    {
      name: 'under a liveness probe of 2 × 5 s on the same handler: 3 s, once',
      code: app(ports('{name: http, containerPort: 8080}') + '  livenessProbe:\n    httpGet: {path: /, port: http}\n    periodSeconds: 5\n    failureThreshold: 2\n'),
      findings: [{ at: 'app' }],
      output: app(ports('{name: http, containerPort: 8080}') + '  livenessProbe:\n    httpGet: {path: /, port: http}\n    periodSeconds: 5\n    failureThreshold: 2\n  readinessProbe:\n    httpGet:\n      path: /\n      port: http\n    periodSeconds: 3\n    failureThreshold: 1\n'),
    },
    {
      name: 'under a liveness probe that gives up in 1 s on the same handler: no readiness probe can give up in a third of that, so none is offered (its fix changed the liveness probe after)',
      code: app(ports('{containerPort: 11211}') + '  livenessProbe:\n    tcpSocket: {port: 11211}\n    periodSeconds: 1\n    failureThreshold: 1\n'),
      findings: [{ at: 'app', message: /declares port 11211/ }],
      output: null,
    },
    {
      name: 'under a liveness probe on the same handler whose period is in quotes: it has no time to give up in (the API server refuses it), so no probe is timed under its defaults',
      code: app(ports('{containerPort: 11211}') + '  livenessProbe:\n    tcpSocket: {port: 11211}\n    periodSeconds: "60"\n'),
      findings: [{ at: 'app', message: /declares port 11211/ }],
      output: null,
    },
    {
      name: 'a bare Pod is neither rolled out nor replaced after a drain: only its container restarts bring traffic early',
      code: 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  labels:\n    app: web\nspec:\n  containers:\n    - name: app\n      image: example/app:1.0\n      ports:\n        - {name: http, containerPort: 8080}\n',
      files: { 'service.yaml': SERVICE_WEB },
      findings: [
        {
          at: 'app',
          message:
            'Pod web: no readiness probe: traffic comes before it is ready. Service web sends it traffic on port http 8080: the container receives requests as soon as its process starts and again after every container restart, and keeps receiving them while it cannot answer.',
        },
      ],
      output: 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  labels:\n    app: web\nspec:\n  containers:\n    - name: app\n      image: example/app:1.0\n      ports:\n        - {name: http, containerPort: 8080}\n      readinessProbe:\n        httpGet:\n          path: /\n          port: http\n        periodSeconds: 10\n',
    },
    {
      name: 'a Service fronts a container that declares no ports: nothing to derive, no fix',
      code: app('  args: [serve]\n'),
      files: { 'service.yaml': SERVICE_WEB },
      findings: [{ at: 'app', message: /no readiness probe: traffic comes before it is ready\. Service web sends it traffic:/ }],
      output: null,
    },
  ],
});
