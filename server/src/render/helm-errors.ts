import { pointerSteps } from '../manifest/path';
import { shortened } from '../shortened';

/**
 * Where Helm says a render failed, read from its own words. Helm names template files by chart path
 * (`mychart/templates/x.yaml`, `parent/charts/sub/templates/y.yaml`) with a line and sometimes a column:
 *   template: mychart/templates/x.yaml:12:3: executing "…" at <.Values.a.b>: nil pointer …   (helm 3)
 *   Error: mychart/templates/x.yaml:2:15\n  executing "…" at <.Values.x.y>: nil pointer …     (helm 4)
 *   execution error at (mychart/templates/x.yaml:1:6): image.repository is required           (`required`, `fail`)
 *   parse error at (mychart/templates/x.yaml:1): missing value for if
 *   YAML parse error on mychart/templates/x.yaml: error converting YAML to JSON: yaml: line 2: …
 * and values files that do not parse, the chart's own by name and a `--values` file by its path:
 *   cannot load values.yaml: cannot unmarshal yaml document: … yaml: line 311: …
 *   failed to parse /work/prod.yaml: cannot unmarshal yaml document: … yaml: line 2: …
 * and values its schema refuses, by their keys:
 *   values don't meet the specifications of the schema(s) in the following chart(s): mychart: - at '/image/tag': …
 */
export interface HelmErrorPlace {
  /** The chart path Helm names (`mychart/templates/x.yaml`), or a values file as Helm names it (see `values`). */
  chartPath: string;
  /** The place is in a values file: `chartPath` is then `values.yaml` (the chart's own) or the path given to helm. */
  values?: boolean;
  /** 0-based line, when Helm names one in the template itself. */
  line?: number;
  /** The values key a schema violation is about (`/image/tag` → image.tag): its line is in the values file that sets it. */
  valuesKey?: string[];
  character?: number;
}

const FILE = String.raw`[^\s:()"'<>]+?\.(?:ya?ml|tpl|txt|json)`;
const PLACES = [
  new RegExp(String.raw`(?:template: |Error: |at \(|^|\s)(${FILE}):(\d+)(?::(\d+))?`, 'm'),
  new RegExp(String.raw`YAML parse error on (${FILE})`),
];

const VALUES_PLACE = /(?:cannot load (values\.ya?ml)|failed to parse (\S+?\.ya?ml)): .*?\byaml: line (\d+):/;

/** The first violation of the values schema (helm 4: `- at '/image/tag': got number, want string`), of the top chart. */
const SCHEMA_PLACE = /values don't meet the specifications of the schema\(s\) in the following chart\(s\):\s*(\S+):\s*- at '(\/[^']*)'/;

/** The first template place Helm's message names, if any; a schema violation of chart `chartName`'s values by its key. */
export function helmErrorPlace(message: string, chartName?: string): HelmErrorPlace | undefined {
  const schema = SCHEMA_PLACE.exec(message);
  if (schema && schema[1] === chartName) return { chartPath: 'values.yaml', values: true, valuesKey: pointerSteps(schema[2]) };
  const values = VALUES_PLACE.exec(message);
  if (values) return { chartPath: values[1] ?? values[2], values: true, line: Math.max(0, Number(values[3]) - 1) };
  const located = PLACES[0].exec(message);
  if (located) {
    return { chartPath: located[1], line: Math.max(0, Number(located[2]) - 1), character: located[3] ? Math.max(0, Number(located[3]) - 1) : undefined };
  }
  const yaml = PLACES[1].exec(message);
  return yaml ? { chartPath: yaml[1] } : undefined;
}

/**
 * Helm's message without its `Error: ` prefix and its advice to rerun with --debug, on as few lines as it
 * needs, and shortened (see shortened).
 */
export function helmErrorWords(stderr: string): string {
  return shortened(
    stderr
      .split('\n')
      .map((line) => line.trimEnd())
      // Helm 4 logs notices on stderr too (`level=INFO msg="found symbolic link in path…"`): the error is what is left.
      .filter((line) => line.trim() && !/^Use --debug flag/.test(line) && !/^WARNING: /.test(line) && !/^(?:time=\S+ )?level=(?:DEBUG|INFO|WARN)\b/.test(line))
      .map((line, i) => (i === 0 ? line.replace(/^Error: /, '') : line.trim()))
      .join(' ')
      .trim(),
  );
}
