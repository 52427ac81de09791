import { setField } from '../fixes/yaml-edit';
import { isObject } from '../is-object';
import { declaredFacts } from '../manifest/declared';
import { spansAt } from '../manifest/path';
import { handlerAsWritten, portNeverResolves, probeTimings, slowStarterOf, START_MARGIN, startBudget } from '../manifest/probe';
import { containersOf, describeContainer } from '../manifest/workload';
import { refusedSharedTiming } from './probe-liveness-equals-readiness';
import { refusedTimingReport } from './refused-probe-timing';
import { startupProbeTooShort } from './startup-probe-too-short';
import type { Rule } from './types';
import { exampleDeployment } from './example-workload';

const STARTUP_PERIOD_SECONDS = 10;

export const probeStartupMissing: Rule = {
  meta: {
    id: 'probe-startup-missing',
    severity: 'error',
    scenario: 'health-checks',
    title: 'A slow start outlasts the liveness or startup probe',
    description:
      "The kubelet starts liveness probing as soon as `initialDelaySeconds` is over; a container that has not answered within `initialDelaySeconds + failureThreshold × periodSeconds` is killed and started again, from scratch. An app that needs longer to start never comes up: it crash-loops on every restart, and after a node drain or node failure every rescheduled replica does the same; a declared start is therefore an error, not a risk. A startup probe holds liveness back until the app has started once, without making liveness slower afterwards. The start time comes from the annotation `kube-resilience/startup-seconds`; for well-known slow starters (Tomcat, JBoss/WildFly, WebLogic, WebSphere, Elasticsearch images) a typical start is assumed and reported as info. A liveness timing the API server refuses is reported instead of a budget: one written as no integer (`initialDelaySeconds: \"300\"`; digits in quotes are written as the number), a negative one (0 is the default, and taken), a `successThreshold` other than 1 (1 is written), or a probe's own `terminationGracePeriodSeconds` below 1. It rejects the workload, and the defaults are no budget either. A startup probe that gives up first kills the start the same way: the kubelet restarts the container once `initialDelaySeconds + failureThreshold × periodSeconds` have passed without a success, so a declared start longer than that crash-loops as well (an image's typical start is not weighed against a startup probe someone timed); a startup probe timing the API server refuses is reported instead of its budget.",
    fix: 'Adds a startup probe with the liveness probe\'s handler, `periodSeconds: 10` and `failureThreshold` = ⌈1.25 × start seconds ÷ 10⌉: a quarter more than the declared start, since starts vary. A startup probe that gives up before the declared start is over gets `failureThreshold` = ⌈(1.25 × start seconds − initialDelaySeconds) ÷ periodSeconds⌉ with its own period: the same quarter more.',
    example: exampleDeployment(
      `        - name: app
          image: example/orders:2.1
          livenessProbe:
            httpGet:
              path: /livez
              port: 8080
            initialDelaySeconds: 30
`,
      `    kube-resilience/startup-seconds: "240"
`,
    ),
  },
  check({ resources, report }) {
    for (const resource of resources) {
      const declared = declaredFacts(resource).startupSeconds;
      for (const ref of containersOf(resource)) {
        const { container, path, name } = ref;
        if (container.startupProbe) {
          // An image's typical start is too rough to overrule a startup probe someone timed.
          const tooShort = declared !== undefined && isObject(container.startupProbe) && startupProbeTooShort(resource, ref, declared);
          if (tooShort) report(tooShort);
          continue;
        }
        if (!container.livenessProbe || portNeverResolves(container, container.livenessProbe)) continue;
        const slow = declared === undefined ? slowStarterOf(container.image) : undefined;
        const startup = declared ?? slow?.seconds;
        if (startup === undefined) continue;
        const t = probeTimings(container.livenessProbe, 'livenessProbe');
        if (!t) {
          // probe-liveness-equals-readiness says it of a liveness probe that shares readiness' handler.
          const refused = refusedTimingReport(resource, ref, 'livenessProbe');
          if (refused && !refusedSharedTiming(resource, ref)) report(refused);
          continue;
        }
        const budget = startBudget(t);
        if (startup <= budget) continue;
        const handler = handlerAsWritten(container.livenessProbe);
        const failureThreshold = Math.ceil((startup * START_MARGIN) / STARTUP_PERIOD_SECONDS);
        const source = slow ? `${slow.name} typically needs ~${startup} s to start (assumed from the image; declare kube-resilience/startup-seconds to be exact)` : `it declares a start of ${startup} s`;
        report({
          resource,
          path: [...path, 'livenessProbe'],
          severity: slow ? 'info' : undefined,
          message: `${describeContainer(resource, name)}: liveness kills it after ${budget} s, before its ${startup} s start. ${source[0].toUpperCase()}${source.slice(1)}, but liveness kills it after ${budget} s (initialDelaySeconds ${t.initialDelaySeconds} + ${t.failureThreshold} × ${t.periodSeconds} s) and there is no startup probe: it restarts before it is up and crash-loops on every restart, and on every reschedule after a drain or node failure.`,
          fixes: () =>
            handler
              ? [
                  {
                    title: `Add a startup probe (${failureThreshold} × ${STARTUP_PERIOD_SECONDS} s = ${failureThreshold * STARTUP_PERIOD_SECONDS} s to start: ${startup} s and a 25 % margin)`,
                    preferred: true,
                    edits: setField(resource, [...path, 'startupProbe'], { ...handler, periodSeconds: STARTUP_PERIOD_SECONDS, failureThreshold }) ?? [],
                    copies: spansAt(resource, [...path, 'livenessProbe']),
                  },
                ]
              : [],
        });
      }
    }
  },
};
