import { probeStartupMissing } from '../../server/src/rules/probe-startup-missing';
import { deploymentWith, indent } from './probe-fixtures';
import { ruleTester } from './rule-tester';

const LIVENESS = '  livenessProbe:\n    httpGet:\n      path: /livez\n      port: 8080\n    initialDelaySeconds: 30\n';
const app = (image: string, body = LIVENESS, annotations = '') => deploymentWith(indent(`- name: app\n  image: ${image}\n${body}`), annotations);
const REFUSES = 'so the API server rejects it. It refuses the whole Deployment, which then runs no pod at all.';
const declares = (seconds: string) => `  annotations:\n    kube-resilience/startup-seconds: "${seconds}"\n`;
/** A startup probe on the liveness handler, with these timing lines (flush left under the probe). */
const startupProbe = (timings: string) => `  startupProbe:\n    httpGet:\n      path: /livez\n      port: 8080\n${indent(timings, 4)}`;

ruleTester(probeStartupMissing, {
  valid: [
    { name: 'an ordinary image with nothing declared', code: app('example/app:1.0') },
    { name: 'a startup probe written as a list is no probe to time: no seconds are claimed of it', code: app('example/app:1.0', LIVENESS + '  startupProbe: [1, 2]\n', declares('1200')) },
    { name: 'a declared start within the liveness budget (30 + 3 × 10 = 60 s)', code: app('example/app:1.0', LIVENESS, declares('60')) },
    { name: 'a slow starter that already has a startup probe', code: app('tomcat:10', LIVENESS + '  startupProbe:\n    tcpSocket:\n      port: 8080\n    failureThreshold: 30\n') },
    { name: 'a slow starter without liveness probe (nothing kills it)', code: app('tomcat:10', '  ports:\n    - containerPort: 8080\n') },
    { name: 'a slow starter whose liveness waits long enough', code: app('docker.elastic.co/elasticsearch/elasticsearch:8.15.0', LIVENESS.replace('30', '150')) },
    { name: 'an invalid declaration counts as none', code: app('example/app:1.0', LIVENESS, declares('2m')) },
    { name: 'a liveness delay in quotes with no start declared or assumed: no start for it to outlast, so not this rule\'s to say', code: app('example/app:1.0', LIVENESS.replace('30', '"30"')) },
    { name: 'a liveness delay in quotes on a slow starter that has a startup probe: nothing for this rule to add', code: app('tomcat:10', LIVENESS.replace('30', '"30"') + '  startupProbe:\n    tcpSocket:\n      port: 8080\n    failureThreshold: 30\n') },
    {
      name: 'a liveness probe naming a port the container does not declare never runs, so it kills no slow start (probe-port-unknown says so)',
      code: app('example/app:1.0', `  ports:\n    - name: web\n      containerPort: 8080\n${LIVENESS.replace('port: 8080', 'port: http')}`, declares('300')),
    },
    {
      name: 'a refused liveness timing on readiness\' own handler is said once, by probe-liveness-equals-readiness',
      code: app('example/app:1.0', `${LIVENESS.replace('30', '"30"')}  readinessProbe:\n    httpGet:\n      path: /livez\n      port: 8080\n`, declares('300')),
    },
    { name: 'a startup probe that gives up exactly when the declared start ends (30 × 10 s = 300 s)', code: app('example/app:1.0', LIVENESS + startupProbe('failureThreshold: 30\nperiodSeconds: 10\n'), declares('300')) },
    { name: 'a startup probe whose initial delay counts toward the start (60 + 24 × 10 s = 300 s)', code: app('example/app:1.0', LIVENESS + startupProbe('initialDelaySeconds: 60\nfailureThreshold: 24\n'), declares('300')) },
    { name: 'a short startup probe on a slow starter image with no start declared: an image\'s typical start does not overrule a startup probe', code: app('tomcat:10', LIVENESS + startupProbe('failureThreshold: 2\n')) },
    { name: 'a short startup probe with no liveness probe and no start declared', code: app('example/app:1.0', startupProbe('failureThreshold: 1\n')) },
    { name: 'a startup probe timing in quotes with no start declared: no start for it to cut short', code: app('example/app:1.0', LIVENESS + startupProbe('periodSeconds: "10"\n')) },
    {
      name: 'a startup probe naming a port the container does not declare never succeeds, whatever its budget (probe-port-unknown says so)',
      code: app('example/app:1.0', `  ports:\n    - name: web\n      containerPort: 8080\n${startupProbe('failureThreshold: 3\n').replace('port: 8080', 'port: http')}`, declares('300')),
    },
    { name: 'a startup probe with 0 timings runs on the defaults (3 × 10 s), which cover a 30 s start: 0 is defaulted, not refused', code: app('example/app:1.0', LIVENESS + startupProbe('periodSeconds: 0\nfailureThreshold: 0\nsuccessThreshold: 0\n'), declares('30')) },
    { name: 'a liveness successThreshold of 0 is defaulted to 1, not refused, and 30 + 3 × 10 s covers a 60 s start', code: app('example/app:1.0', LIVENESS + '    successThreshold: 0\n', declares('60')) },
  ],
  invalid: [
    {
      name: 'a negative liveness delay is refused by the API server, which is said instead of a budget; no one value to write',
      code: app('example/app:1.0', LIVENESS.replace('initialDelaySeconds: 30', 'initialDelaySeconds: -30'), declares('300')),
      findings: [{ at: '-30', severity: 'error', message: `Deployment web: livenessProbe's initialDelaySeconds -30 is negative, ${REFUSES} Probe timings are 0 or more.` }],
      output: null,
    },
    {
      name: 'a liveness successThreshold other than 1 is refused; the fix writes 1, and 300 + 3 × 10 s then covers the start',
      code: app('example/app:1.0', LIVENESS.replace('initialDelaySeconds: 30', 'initialDelaySeconds: 300') + '    successThreshold: 3\n', declares('300')),
      findings: [{ at: '3', message: `Deployment web: livenessProbe's successThreshold 3 must be 1, ${REFUSES} A liveness probe acts on its first success: write 1.` }],
      output: app('example/app:1.0', LIVENESS.replace('initialDelaySeconds: 30', 'initialDelaySeconds: 300') + '    successThreshold: 1\n', declares('300')),
    },
    {
      name: 'a startup successThreshold in quotes other than 1 is refused as no integer, and 1 is still the one value to write',
      code: app('example/app:1.0', startupProbe('failureThreshold: 30\nsuccessThreshold: "2"\n'), declares('300')),
      findings: [{ at: '"2"', message: `Deployment web: startupProbe's successThreshold "2" is no integer, ${REFUSES} A startup probe acts on its first success: write 1.` }],
      output: app('example/app:1.0', startupProbe('failureThreshold: 30\nsuccessThreshold: 1\n'), declares('300')),
    },
    {
      name: "a startup probe's own grace period of -1 is refused; no one value to write",
      code: app('example/app:1.0', startupProbe('failureThreshold: 30\nterminationGracePeriodSeconds: -1\n'), declares('300')),
      findings: [{ at: '-1', message: /^Deployment web: startupProbe's terminationGracePeriodSeconds -1 must be greater than 0, so the API server rejects it\. .* left out, the pod's terminationGracePeriodSeconds applies\.$/ }],
      output: null,
    },
    {
      name: "a grace period of 0 in quotes is no integer, and 0 no number to write: the API server refuses that too",
      code: app('example/app:1.0', startupProbe('failureThreshold: 30\nterminationGracePeriodSeconds: "0"\n'), declares('300')),
      findings: [{ at: '"0"', message: `Deployment web: startupProbe's terminationGracePeriodSeconds "0" is no integer, ${REFUSES} Probe timings are whole numbers.` }],
      output: null,
    },
    {
      name: 'a liveness delay in quotes is no integer: the API server rejects the Deployment, which is said instead of a budget worked out from the default delay; the fix writes the number, and 300 + 3 × 10 s then outlasts the start',
      code: app('example/app:1.0', LIVENESS.replace('initialDelaySeconds: 30', 'initialDelaySeconds: "300" # five minutes to warm up'), declares('300')),
      findings: [
        {
          at: '"300"',
          severity: 'error',
          message: 'Deployment web: livenessProbe\'s initialDelaySeconds "300" is no integer, so the API server rejects it. It refuses the whole Deployment, which then runs no pod at all. Probe timings are whole numbers: write 300.',
        },
      ],
      output: app('example/app:1.0', LIVENESS.replace('initialDelaySeconds: 30', 'initialDelaySeconds: 300 # five minutes to warm up'), declares('300')),
    },
    {
      name: 'a fractional period is no integer either, and no number to write; an assumed slow start says it as surely',
      code: app('tomcat:10', LIVENESS + '    periodSeconds: 2.5\n'),
      findings: [{ at: '2.5', severity: 'error', message: /^Deployment web: livenessProbe's periodSeconds 2\.5 is no integer, so the API server rejects it\. .* Probe timings are whole numbers\.$/ }],
      output: null,
    },
    {
      name: 'a 20-minute start under a startup probe that gives up after 5 minutes: the fix sets a failureThreshold that covers it and a quarter more, keeping the comment',
      code: app('example/app:1.0', LIVENESS + startupProbe('failureThreshold: 30 # five minutes\nperiodSeconds: 10\n'), declares('1200')),
      findings: [
        {
          at: 'failureThreshold',
          severity: 'error',
          message:
            'Deployment web: startupProbe gives up after 300 s (failureThreshold 30 × periodSeconds 10); the declared start takes 1200 s: the kubelet restarts it before it is up, every time, and every replacement after a drain or node failure crash-loops the same way.',
        },
      ],
      output: app('example/app:1.0', LIVENESS + startupProbe('failureThreshold: 150 # five minutes\nperiodSeconds: 10\n'), declares('1200')),
    },
    {
      name: 'one second short of the declared start (30 × 10 s = 300 s for a 301 s start): ⌈376.25 ÷ 10⌉ = 38 periods cover it and a quarter more',
      code: app('example/app:1.0', LIVENESS + startupProbe('failureThreshold: 30\nperiodSeconds: 10\n'), declares('301')),
      findings: [{ at: 'failureThreshold', message: /^Deployment web: startupProbe gives up after 300 s \(failureThreshold 30 × periodSeconds 10\); the declared start takes 301 s: / }],
      output: app('example/app:1.0', LIVENESS + startupProbe('failureThreshold: 38\nperiodSeconds: 10\n'), declares('301')),
    },
    {
      name: 'failureThreshold unwritten (3) under the probe\'s own period and initial delay, and no liveness probe: the probe key, and ⌈(125 − 10) ÷ 5⌉ = 23',
      code: app('example/app:1.0', startupProbe('initialDelaySeconds: 10\nperiodSeconds: 5\n'), declares('100')),
      findings: [{ at: 'startupProbe', message: /^Deployment web: startupProbe gives up after 25 s \(initialDelaySeconds 10 \+ failureThreshold 3 × periodSeconds 5\); the declared start takes 100 s: / }],
      output: app('example/app:1.0', startupProbe('initialDelaySeconds: 10\nperiodSeconds: 5\nfailureThreshold: 23\n'), declares('100')),
    },
    {
      name: 'a startup period in quotes is no integer: the API server rejects the Deployment, which is said instead of a budget; the fix writes the number',
      code: app('example/app:1.0', LIVENESS + startupProbe('failureThreshold: 30\nperiodSeconds: "10"\n'), declares('300')),
      findings: [{ at: '"10"', severity: 'error', message: /^Deployment web: startupProbe's periodSeconds "10" is no integer, so the API server rejects it\. .*: write 10\.$/ }],
      output: app('example/app:1.0', LIVENESS + startupProbe('failureThreshold: 30\nperiodSeconds: 10\n'), declares('300')),
    },
    {
      name: 'a fractional startup threshold is no integer, and no number to write',
      code: app('example/app:1.0', startupProbe('failureThreshold: 2.5\n'), declares('300')),
      findings: [{ at: '2.5', message: /^Deployment web: startupProbe's failureThreshold 2\.5 is no integer, so the API server rejects it\. .* Probe timings are whole numbers\.$/ }],
      output: null,
    },
    {
      name: 'a declared start of 300 s against a 60 s budget',
      code: app('example/app:1.0', LIVENESS, declares('300')),
      findings: [
        {
          at: 'livenessProbe',
          severity: 'error',
          message:
            'Deployment web: liveness kills it after 60 s, before its 300 s start. It declares a start of 300 s, but liveness kills it after 60 s (initialDelaySeconds 30 + 3 × 10 s) and there is no startup probe: it restarts before it is up and crash-loops on every restart, and on every reschedule after a drain or node failure.',
        },
      ],
      output: app('example/app:1.0', LIVENESS + '  startupProbe:\n    httpGet:\n      path: /livez\n      port: 8080\n    periodSeconds: 10\n    failureThreshold: 38\n', declares('300')),
    },
    {
      name: 'declared on the pod template, with a 25 % margin rounded up to whole periods (95 s × 1.25 → 12 × 10 s)',
      code: app('example/app:1.0', '  livenessProbe:\n    exec:\n      command: [cat, /tmp/alive]\n').replace('      labels:\n        app: web\n    spec:', '      labels:\n        app: web\n      annotations:\n        kube-resilience/startup-seconds: "95"\n    spec:'),
      findings: [{ at: 'livenessProbe', message: /declares a start of 95 s, but liveness kills it after 30 s/ }],
      output: app(
        'example/app:1.0',
        '  livenessProbe:\n    exec:\n      command: [cat, /tmp/alive]\n  startupProbe:\n    exec:\n      command:\n        - cat\n        - /tmp/alive\n    periodSeconds: 10\n    failureThreshold: 12\n',
      ).replace('      labels:\n        app: web\n    spec:', '      labels:\n        app: web\n      annotations:\n        kube-resilience/startup-seconds: "95"\n    spec:'),
    },
    {
      name: 'a Tomcat image: info, with the assumption named',
      code: app('tomcat:10.1-jdk17'),
      findings: [{ at: 'livenessProbe', severity: 'info', message: /Tomcat typically needs ~120 s to start \(assumed from the image; declare kube-resilience\/startup-seconds to be exact\), but liveness kills it after 60 s/ }],
      output: app('tomcat:10.1-jdk17', LIVENESS + '  startupProbe:\n    httpGet:\n      path: /livez\n      port: 8080\n    periodSeconds: 10\n    failureThreshold: 15\n'),
    },
    { name: 'WildFly', code: app('quay.io/wildfly/wildfly:30.0.0.Final'), findings: [{ severity: 'info', message: /JBoss\/WildFly typically needs ~180 s/ }] },
    { name: 'WebLogic', code: app('container-registry.oracle.com/middleware/weblogic:14.1.1.0'), findings: [{ severity: 'info', message: /WebLogic typically needs ~300 s/ }] },
    { name: 'WebSphere traditional', code: app('ibmcom/websphere-traditional:latest'), findings: [{ severity: 'info', message: /WebSphere typically needs ~300 s/ }] },
    { name: 'Elasticsearch', code: app('docker.elastic.co/elasticsearch/elasticsearch:8.15.0'), findings: [{ severity: 'info', message: /Elasticsearch typically needs ~120 s/ }] },
    { name: 'a declaration wins over the image guess', code: app('tomcat:10', LIVENESS, declares('400')), findings: [{ severity: 'error', message: /declares a start of 400 s/ }] },
  ],
});
