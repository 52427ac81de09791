import { realpathSync } from 'node:fs';
import { join, relative } from 'node:path';
import { readRegularFileBounded } from '../files/read-bounded';
import { within } from '../files/within';
import { MAX_CHART_ENTRIES, walkChart } from './chart-walk';
import type { RenderProblem } from './types';

const MAX_SCHEMA_BYTES = 4 * 1024 * 1024;

/**
 * Why a chart must not be rendered, if it must not: helm would read outside the chart (it follows links: a
 * `.Files.Get` of one printed a file from elsewhere into the report), fetch from the network or read outside it
 * (a values schema's `$ref` to a URL or a file), or wait on a FIFO or device (the render held for its timeout).
 */
export function chartInputsOutside(root: string, chartName: string): RenderProblem | undefined {
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    return undefined;
  }
  const problem = (path: string, why: string, line = 0): RenderProblem => ({
    location: { path, line },
    severity: 'warning',
    message: `Chart ${chartName} is not analysed: ${why}; it is not rendered.`,
  });
  const chartYaml = join(root, 'Chart.yaml');
  let found: RenderProblem | undefined;
  const whole = walkChart(root, (path, entry) => {
    const named = relative(root, path);
    if (entry.isSymbolicLink()) {
      // One that leads nowhere is helm's to report.
      const target = realTarget(path);
      if (target !== undefined && !within(realRoot, target)) found = problem(chartYaml, `${named} is a link to ${target}, outside the chart, which helm would read`);
    } else if (!entry.isFile()) found = problem(chartYaml, `${named} is not a regular file (a FIFO or a device would hold the render)`);
    else if (entry.name === 'values.schema.json') {
      const outside = externalReference(path);
      if (outside) found = problem(path, `its values schema refers to ${outside.ref} ($ref), which helm would fetch or read outside the chart`, outside.line);
    }
    return !!found;
  });
  return whole ? found : problem(chartYaml, `it holds more than ${MAX_CHART_ENTRIES.toLocaleString('en')} files and folders, more than any chart`);
}

function realTarget(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** The first `$ref` of a JSON schema that is not a reference inside it (`#/…`), with its line. */
function externalReference(path: string): { ref: string; line: number } | undefined {
  let text: string;
  try {
    text = readRegularFileBounded(path, MAX_SCHEMA_BYTES).toString('utf8');
  } catch {
    return undefined;
  }
  for (const match of text.matchAll(/"\$ref"\s*:\s*"((?:[^"\\]|\\.)*)"/g)) {
    if (match[1].startsWith('#')) continue;
    return { ref: match[1], line: text.slice(0, match.index).split('\n').length - 1 };
  }
  return undefined;
}
