import { setField } from '../fixes/yaml-edit';
import type { Resource } from '../manifest/parse';
import { portNeverResolves, probeTimings, START_MARGIN, startBudget } from '../manifest/probe';
import { describeContainer, type ContainerRef } from '../manifest/workload';
import { refusedTimingReport } from './refused-probe-timing';
import type { Report } from './types';

/**
 * What probe-startup-missing reports of a container whose startup probe gives up before its declared start is over
 * (the kubelet kills it then, every time), undefined when the probe covers the start. A timing the API server refuses
 * is reported instead of seconds; a port the probe never reaches is probe-port-unknown's to say.
 */
export function startupProbeTooShort(resource: Resource, ref: ContainerRef, startSeconds: number): Report | undefined {
  const { container, path, name } = ref;
  const probe = container.startupProbe;
  if (portNeverResolves(container, probe)) return undefined;
  const t = probeTimings(probe, 'startupProbe');
  if (!t) return refusedTimingReport(resource, ref, 'startupProbe');
  const budget = startBudget(t);
  if (startSeconds <= budget) return undefined;
  const delay = t.initialDelaySeconds ? `initialDelaySeconds ${t.initialDelaySeconds} + ` : '';
  const failureThreshold = Math.ceil((startSeconds * START_MARGIN - t.initialDelaySeconds) / t.periodSeconds);
  const at = [...path, 'startupProbe', 'failureThreshold'];
  return {
    resource,
    path: at,
    message: `${describeContainer(resource, name)}: startupProbe gives up after ${budget} s (${delay}failureThreshold ${t.failureThreshold} × periodSeconds ${t.periodSeconds}); the declared start takes ${startSeconds} s: the kubelet restarts it before it is up, every time, and every replacement after a drain or node failure crash-loops the same way.`,
    fixes: () => [
      {
        title: `Set failureThreshold to ${failureThreshold} (${delay}${failureThreshold} × ${t.periodSeconds} s = ${t.initialDelaySeconds + failureThreshold * t.periodSeconds} s to start: ${startSeconds} s and a 25 % margin)`,
        preferred: true,
        edits: setField(resource, at, failureThreshold) ?? [],
      },
    ],
  };
}
