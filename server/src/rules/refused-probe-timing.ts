import { numberForDigits } from '../fixes/number-for-digits';
import { quotedDigits, shownValue } from '../manifest/integer-field';
import type { Resource } from '../manifest/parse';
import type { Path } from '../manifest/path';
import { refusedTiming, type ProbeField } from '../manifest/probe';
import { describeContainer } from '../manifest/workload';
import type { Report } from './types';

/**
 * What a probe rule reports instead of its conclusion when one of the probe's timings is written as no integer
 * (`periodSeconds: "10"`): the API server rejects the workload, and the probe has no seconds to work out. Undefined
 * when its timings are all numbers.
 */
export function refusedTimingReport(resource: Resource, container: { path: Path; name: string; container: any }, probe: ProbeField): Report | undefined {
  const refused = refusedTiming(container.container?.[probe]);
  if (!refused) return undefined;
  const { field, value } = refused;
  const at = [...container.path, probe, field];
  const digits = quotedDigits(value);
  return {
    resource,
    path: at,
    target: 'value',
    message: `${describeContainer(resource, container.name)}: ${probe}'s ${field} ${shownValue(value)} is no integer, so the API server rejects it. It refuses the whole ${resource.kind}, which then runs no pod at all. Probe timings are whole numbers${digits === undefined ? '' : `: write ${digits}`}.`,
    fixes: () => [numberForDigits(resource, at, value)],
  };
}
