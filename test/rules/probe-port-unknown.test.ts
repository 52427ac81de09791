import { probePortUnknown } from '../../server/src/rules/probe-port-unknown';
import { deploymentWith, indent } from './probe-fixtures';
import { ruleTester } from './rule-tester';

const app = (body: string) => deploymentWith(indent(`- name: app\n  image: example/app:1.0\n  ports:\n    - name: http\n      containerPort: 8080\n    - name: metrics\n      containerPort: 9090\n${body}`));

ruleTester(probePortUnknown, {
  valid: [
    {
      name: 'a UDP name whose number is served over TCP too (DNS on 53)',
      code: deploymentWith(indent('- name: dns\n  image: example/dns:1\n  ports:\n    - name: dns\n      containerPort: 53\n      protocol: UDP\n    - name: dns-tcp\n      containerPort: 53\n  readinessProbe:\n    tcpSocket:\n      port: dns\n')),
    },
    { name: 'a declared port name', code: app('  readinessProbe:\n    httpGet:\n      path: /ready\n      port: http\n') },
    { name: 'a port number (need not be declared)', code: app('  livenessProbe:\n    tcpSocket:\n      port: 8081\n') },
    { name: 'an exec probe', code: app('  livenessProbe:\n    exec:\n      command: [true]\n') },
    {
      name: 'a plain init container runs no probes (the API server refuses them there, which is no port\'s doing)',
      code: deploymentWith(indent('- name: app\n  image: a\n'), '').replace(
        '      containers:',
        '      initContainers:\n        - name: migrate\n          image: example/migrate\n          livenessProbe:\n            httpGet: {path: /x, port: nope}\n      containers:',
      ),
    },
  ],
  invalid: [
    {
      name: 'a quoted number: a port name with no letter, which the API server refuses (it was taken for the number); the fix writes the number',
      code: app('  livenessProbe:\n    httpGet:\n      path: /livez\n      port: "8080" # the admin port\n'),
      findings: [{ at: '"8080"', message: /^Deployment web: livenessProbe's port "8080" is no port name the API server takes \(it has no letter\): it rejects the whole Deployment\./ }],
      output: app('  livenessProbe:\n    httpGet:\n      path: /livez\n      port: 8080 # the admin port\n'),
    },
    {
      name: 'a name in capitals, declared so too: refused as well, with no number to guess',
      code: app('  readinessProbe:\n    tcpSocket:\n      port: HTTP\n'),
      findings: [{ at: 'HTTP', message: /port "HTTP" is no port name the API server takes \(it has characters other than lowercase letters, digits and hyphens\)/ }],
      output: null,
    },
    {
      name: 'a named port whose number is in quotes: the API server rejects the Deployment, which is said once for both probes, not that the container names no ports; the fix writes the number',
      code: deploymentWith(indent('- name: app\n  image: example/app:1.0\n  ports:\n    - name: http\n      containerPort: "8080"\n  livenessProbe:\n    tcpSocket:\n      port: http\n  readinessProbe:\n    httpGet:\n      path: /ready\n      port: http\n')),
      findings: [
        {
          at: '"8080"',
          severity: 'error',
          message: 'Deployment web: livenessProbe uses port "http", whose containerPort "8080" is no integer, so the API server rejects it. It refuses the whole Deployment, which then runs no pod at all. A containerPort is a number: write 8080.',
        },
      ],
      output: deploymentWith(indent('- name: app\n  image: example/app:1.0\n  ports:\n    - name: http\n      containerPort: 8080\n  livenessProbe:\n    tcpSocket:\n      port: http\n  readinessProbe:\n    httpGet:\n      path: /ready\n      port: http\n')),
    },
    {
      name: 'a named port that is UDP: a TCP check never reaches it',
      code: deploymentWith(indent('- name: statsd\n  image: example/statsd:1\n  ports:\n    - name: metrics\n      containerPort: 8125\n      protocol: UDP\n  livenessProbe:\n    tcpSocket:\n      port: metrics\n')),
      findings: [{ at: 'metrics', line: 24, severity: 'error', message: 'Deployment web: livenessProbe checks UDP port "metrics", so it always fails. Port "metrics" is 8125/UDP: a TCP check connects over TCP and can never reach a UDP port, so the kubelet restarts the container over and over.' }],
    },
    {
      name: 'readiness on an undeclared name',
      code: app('  readinessProbe:\n    httpGet:\n      path: /ready\n      port: web\n'),
      findings: [
        {
          at: 'web',
          severity: 'error',
          message: 'Deployment web: readinessProbe uses undeclared port "web": the pod never becomes ready. The container names http (8080), metrics (9090): the pod never becomes ready and never receives traffic.',
        },
      ],
      output: null,
    },
    {
      name: 'a misspelt name beside another port whose number is in quotes: the name is undeclared, said as such; the refused number is not the probe\'s port',
      code: app('  livenessProbe:\n    tcpSocket:\n      port: htp\n').replace('containerPort: 9090', 'containerPort: "9090"'),
      findings: [{ at: 'htp', message: /^Deployment web: livenessProbe uses undeclared port "htp": liveness never runs\./ }],
    },
    {
      name: 'liveness over TCP on a misspelt name',
      code: app('  livenessProbe:\n    tcpSocket:\n      port: htp\n'),
      findings: [{ at: 'htp', message: /livenessProbe uses undeclared port "htp": liveness never runs\. The container names http \(8080\), metrics \(9090\): the liveness probe never runs at all, so a hung container is never restarted\./ }],
    },
    {
      name: 'startup probe on an undeclared name',
      code: app('  startupProbe:\n    httpGet:\n      path: /started\n      port: admin\n'),
      findings: [{ at: 'admin', message: /startupProbe uses undeclared port "admin": the container never starts\. .*never counts as started/ }],
    },
    {
      name: 'an init sidecar without ports',
      code: deploymentWith(indent('- name: app\n  image: a\n'), '').replace(
        '      containers:',
        '      initContainers:\n        - name: proxy\n          image: example/proxy\n          restartPolicy: Always\n          readinessProbe:\n            tcpSocket:\n              port: proxy\n      containers:',
      ),
      findings: [{ at: 'proxy', line: 21, message: /^Deployment web, container proxy: readinessProbe uses undeclared port "proxy": the pod never becomes ready\. The container names no ports:/ }],
    },
  ],
});
