import type { Fix } from '../fixes/edit';
import { numberForDigits } from '../fixes/number-for-digits';
import { removeField, setField } from '../fixes/yaml-edit';
import { quotedDigits, shownValue } from '../manifest/integer-field';
import type { Resource } from '../manifest/parse';
import type { Path } from '../manifest/path';
import { mustBeOne, ON_READINESS, probeFieldRefusal, refusedTiming, type CheckedProbeField, type ProbeField, type RefusedWhy } from '../manifest/probe';
import { describeContainer } from '../manifest/workload';
import type { Report } from './types';

/**
 * What a probe rule reports instead of its conclusion when the API server refuses one of the probe's timings
 * (`periodSeconds: "10"`, `-5`, a liveness successThreshold of 2): it rejects the workload, and the probe has no
 * seconds to work out. Undefined when it takes them all.
 */
export function refusedTimingReport(resource: Resource, container: { path: Path; name: string; container: any }, probe: ProbeField): Report | undefined {
  const refused = refusedTiming(container.container?.[probe], probe);
  if (!refused) return undefined;
  const { field, value, why } = refused;
  const at = [...container.path, probe, field];
  const written = writtenAs(field, value, probe);
  return {
    resource,
    path: at,
    target: 'value',
    message: `${describeContainer(resource, container.name)}: ${probe}'s ${field} ${shownValue(value)} ${why}, so the API server rejects it. It refuses the whole ${resource.kind}, which then runs no pod at all. ${advice(why, probe, field, written)}`,
    fixes: () => [why === ON_READINESS ? removal(resource, at, field) : fixOf(resource, at, field, value, written)],
  };
}

/** The one number to write instead, when there is one: 1 for a liveness or startup successThreshold, else digits in quotes the API server would take as a number. */
function writtenAs(field: CheckedProbeField, value: unknown, probe: ProbeField): number | undefined {
  if (mustBeOne(field, probe)) return 1;
  const digits = quotedDigits(value);
  return digits !== undefined && !probeFieldRefusal(field, digits, probe) ? digits : undefined;
}

function advice(why: RefusedWhy, probe: ProbeField, field: CheckedProbeField, written: number | undefined): string {
  const write = written === undefined ? '' : `: write ${written}`;
  if (mustBeOne(field, probe)) return `A ${probe === 'livenessProbe' ? 'liveness' : 'startup'} probe acts on its first success${write}.`;
  if (why === 'is negative') return 'Probe timings are 0 or more.';
  if (why === 'must be greater than 0') return "A probe's own grace period is 1 s or more; left out, the pod's terminationGracePeriodSeconds applies.";
  if (why === ON_READINESS) return 'A failing readiness probe kills nothing, so it has no grace period to give: remove it.';
  return `Probe timings are whole numbers${write}.`;
}

function fixOf(resource: Resource, at: Path, field: CheckedProbeField, value: unknown, written: number | undefined): Fix | undefined {
  if (written === undefined) return undefined;
  if (quotedDigits(value) === written) return numberForDigits(resource, at, value);
  return { title: `Set ${field} to ${written}`, preferred: true, edits: setField(resource, at, written) ?? [] };
}

/** The only value the API server takes is none: removed, nothing the kubelet does changes. */
function removal(resource: Resource, at: Path, field: CheckedProbeField): Fix {
  return { title: `Remove ${field}`, preferred: true, edits: removeField(resource, at) ?? [] };
}
