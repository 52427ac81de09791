/**
 * The SARIF 2.1.0 schema's required properties and enumerations for what the CLI writes (sarifLog,
 * run, tool, toolComponent, reportingDescriptor, result, message, location, region), as a list of
 * problems: empty when the log conforms.
 */
export function sarifProblems(log: any): string[] {
  const problems: string[] = [];
  const need = (ok: boolean, what: string) => {
    if (!ok) problems.push(what);
  };
  const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
  const isMessage = (m: any) => isObject(m) && (typeof m.text === 'string' || typeof m.id === 'string');
  const isPositiveInt = (v: unknown) => v === undefined || (Number.isInteger(v) && (v as number) >= 1);

  need(isObject(log), 'the log is an object');
  need(log?.version === '2.1.0', 'sarifLog.version is "2.1.0"');
  need(Array.isArray(log?.runs), 'sarifLog.runs is an array');
  if (log?.$schema !== undefined) need(typeof log.$schema === 'string', 'sarifLog.$schema is a URI string');
  for (const [r, run] of (Array.isArray(log?.runs) ? log.runs : []).entries()) {
    const at = `runs[${r}]`;
    need(isObject(run?.tool), `${at}.tool is required`);
    const driver = run?.tool?.driver;
    need(isObject(driver), `${at}.tool.driver is required`);
    need(typeof driver?.name === 'string' && driver.name.length > 0, `${at}.tool.driver.name is required`);
    const rules = driver?.rules ?? [];
    need(Array.isArray(rules), `${at}.tool.driver.rules is an array`);
    const ids = new Set<string>();
    for (const [i, rule] of rules.entries()) {
      need(typeof rule?.id === 'string', `${at} rules[${i}].id is required`);
      need(!ids.has(rule?.id), `${at} rules[${i}].id is unique`);
      ids.add(rule?.id);
      for (const field of ['shortDescription', 'fullDescription', 'help']) {
        if (rule?.[field] !== undefined) need(isMessage(rule[field]), `${at} rules[${i}].${field} has text`);
      }
      const level = rule?.defaultConfiguration?.level;
      if (level !== undefined) need(['none', 'note', 'warning', 'error'].includes(level), `${at} rules[${i}] default level is a SARIF level`);
    }
    need(run?.results === undefined || Array.isArray(run.results), `${at}.results is an array`);
    for (const [i, result] of (run?.results ?? []).entries()) {
      const where = `${at}.results[${i}]`;
      need(isMessage(result?.message), `${where}.message has text or id`);
      if (result?.level !== undefined) need(['none', 'note', 'warning', 'error'].includes(result.level), `${where}.level is a SARIF level`);
      if (result?.ruleIndex !== undefined) {
        need(Number.isInteger(result.ruleIndex) && result.ruleIndex >= -1, `${where}.ruleIndex is an integer ≥ -1`);
        need(rules[result.ruleIndex]?.id === result.ruleId, `${where}.ruleIndex points at rule ${result.ruleId}`);
      }
      for (const [j, location] of [...(result?.locations ?? []), ...(result?.relatedLocations ?? [])].entries()) {
        need(isObject(location), `${where} location ${j} is an object`);
        if (location?.id !== undefined) need(Number.isInteger(location.id) && location.id >= -1, `${where} location ${j}.id is an integer ≥ -1`);
        const physical = location?.physicalLocation;
        if (physical !== undefined) {
          need(isObject(physical.artifactLocation) || isObject(physical.address), `${where} location ${j} names an artifact or address`);
          const region = physical.region;
          if (region !== undefined) {
            for (const key of ['startLine', 'startColumn', 'endLine', 'endColumn']) need(isPositiveInt(region[key]), `${where} location ${j}.region.${key} ≥ 1`);
          }
        }
        if (location?.message !== undefined) need(isMessage(location.message), `${where} location ${j}.message has text`);
      }
    }
  }
  return problems;
}
