import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

const schema = JSON.parse(readFileSync(join(__dirname, 'sarif-schema', 'sarif-2.1.0.json'), 'utf8'));
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);
const validate = ajv.compile(schema);

/** Where a log breaks the SARIF 2.1.0 JSON schema: empty when it conforms. */
export function schemaProblems(log: unknown): string[] {
  if (validate(log)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
}

/**
 * The constraints GitHub code scanning documents for SARIF uploads, beyond the schema: one run per
 * tool, a rule id on every result that names a rule of the run, a physical location with a relative
 * URI under the checkout and a start line for findings in files, stable fingerprints, and its limits.
 */
export function codeScanningProblems(log: any): string[] {
  const problems: string[] = [];
  const need = (ok: boolean, what: string) => ok || problems.push(what);
  const runs: any[] = log?.runs ?? [];
  need(runs.length >= 1 && runs.length <= 20, 'between 1 and 20 runs');
  const tools = runs.map((run) => run?.tool?.driver?.name);
  need(new Set(tools).size === tools.length, 'one run per tool');
  for (const run of runs) {
    const ids = new Set((run.tool.driver.rules ?? []).map((r: any) => r.id));
    need((run.results ?? []).length <= 25_000, 'at most 25,000 results a run');
    for (const rule of run.tool.driver.rules ?? []) {
      need(typeof rule.shortDescription?.text === 'string', `rule ${rule.id} has a short description`);
      need(typeof rule.help?.markdown === 'string' || typeof rule.help?.text === 'string', `rule ${rule.id} has help`);
    }
    for (const [i, result] of (run.results ?? []).entries()) {
      const at = `result ${i} (${result.ruleId})`;
      need(typeof result.ruleId === 'string' && ids.has(result.ruleId), `${at} names a rule of its run`);
      need(typeof result.message?.text === 'string' && result.message.text.length > 0, `${at} has message text`);
      need(Array.isArray(result.locations) && result.locations.length >= 1 && result.locations.length <= 1000, `${at} has 1 to 1000 locations`);
      need(typeof result.partialFingerprints === 'object' && Object.keys(result.partialFingerprints).length > 0, `${at} has partialFingerprints`);
      for (const location of result.locations ?? []) {
        const physical = location.physicalLocation;
        if (!physical) {
          need(Array.isArray(location.logicalLocations) && location.logicalLocations.every((l: any) => typeof l.kind === 'string'), `${at} without a file has logical locations with a kind`);
          continue;
        }
        const artifact = physical.artifactLocation;
        need(artifact?.uriBaseId === '%SRCROOT%', `${at} is relative to %SRCROOT%`);
        need(typeof artifact?.uri === 'string' && !/^[a-z]+:/i.test(artifact.uri) && !artifact.uri.startsWith('/') && !artifact.uri.split('/').includes('..'), `${at} has a relative URI inside the checkout`);
        need(Number.isInteger(physical.region?.startLine) && physical.region.startLine >= 1, `${at} has a start line`);
      }
    }
  }
  return problems;
}
