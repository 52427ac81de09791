import {
  ANNOTATION_PREFIX,
  DECLARED_ANNOTATIONS,
  declaredAnnotationSpec,
  everyAnnotation,
  IGNORE_ANNOTATION,
  parseRuleList,
  parseSessions,
  parseSeconds,
  SESSION_SECONDS_ANNOTATION,
  SESSIONS_ANNOTATION,
  STARTUP_SECONDS_ANNOTATION,
} from '../manifest/declared';
import { setField } from '../fixes/yaml-edit';
import type { ManifestDocument, ManifestFile, Resource } from '../manifest/parse';
import { describeResource } from '../manifest/workload';
import { nodeAt, type Path } from '../manifest/path';
import { isScalar } from 'yaml';
import { ignoreCommentIds } from './suppression';
import type { Rule } from './types';
import { exampleDeployment } from './example-workload';

function unknownRuleIds(ids: readonly string[], known: readonly string[]): string[] {
  return ids.filter((id) => !known.includes(id));
}

/** What is wrong with a declared annotation's value, or undefined when it is fine. */
function problemWith(key: string, value: unknown, known: readonly string[]): string | undefined {
  const shown = JSON.stringify(value ?? null);
  switch (key) {
    case STARTUP_SECONDS_ANNOTATION:
      return parseSeconds(value) === undefined ? `${key} is ${shown}, not a number of seconds: the probe rules ignore it. It takes a positive whole number of seconds, quoted (e.g. "120").` : undefined;
    case SESSION_SECONDS_ANNOTATION:
      return parseSeconds(value) === undefined ? `${key} is ${shown}, not a number of seconds: the session fixes assume a length. It takes a positive whole number of seconds, quoted (e.g. "3600").` : undefined;
    case SESSIONS_ANNOTATION:
      return parseSessions(value) === undefined ? `${key} is ${shown}, which the session rules ignore. It takes "in-memory" (sessions die with the pod) or "external" (sessions live in a shared store).` : undefined;
    case IGNORE_ANNOTATION: {
      const unknown = typeof value === 'string' ? unknownRuleIds(parseRuleList(value), known) : [shown];
      return unknown.length ? `${key} names ${unknown.map((id) => `"${id}"`).join(', ')}, which ${unknown.length === 1 ? 'is not a rule id' : 'are not rule ids'}: nothing is ignored for ${unknown.length === 1 ? 'it' : 'them'}. It takes comma-separated rule ids such as ${known.slice(0, 2).join(', ')}.` : undefined;
    }
    default:
      return undefined;
  }
}

/** The lines of the documents under analysis that may hold a kube-resilience-ignore comment. */
function* linesOf(file: ManifestFile, documents: readonly ManifestDocument[]): Generator<number> {
  for (const document of documents) {
    if (!document.text.includes('kube-resilience-ignore')) continue;
    const first = file.lines.position(document.offset).line;
    const last = file.lines.position(document.offset + Math.max(0, document.text.length - 1)).line;
    for (let line = first; line <= last; line++) yield line;
  }
}

function resourceAtLine(file: ManifestFile, line: number): Resource | undefined {
  const offset = file.lines.lineStart(line);
  return file.resources.find((r) => r.document && offset >= r.document.offset && offset < r.document.offset + r.document.text.length);
}

export const annotationInvalid: Rule = {
  meta: {
    id: 'annotation-invalid',
    severity: 'warning',
    scenario: 'input',
    title: 'An annotation the API server refuses, or a kube-resilience annotation or ignore comment that means nothing',
    description:
      'The annotations `kube-resilience/startup-seconds` (a positive whole number of seconds), `kube-resilience/sessions` (`in-memory` or `external`), `kube-resilience/session-seconds` (how long a session lasts, in whole seconds) and `kube-resilience/ignore` (comma-separated rule ids), and the comment `# kube-resilience-ignore rule-id -- reason`, state facts the rules rely on. A value they cannot read is silently worthless: the rules then act as if nothing was declared, and an ignore with a misspelt rule id ignores nothing. Any annotation value written as a bare YAML number or boolean (`cluster-autoscaler.kubernetes.io/safe-to-evict: false` as well as these) is worse: annotation values are strings, and the API server rejects the whole resource; the rules read such an annotation as unset. Annotations are read on the resource, on its pod template and on a CronJob\'s Job template.',
    fix: 'Quotes a value written as a YAML number or boolean. Other values have no automatic fix: the message names what is accepted.',
    example: exampleDeployment(
      `        - name: app
          image: example/orders:2.1
`,
      `    kube-resilience/startup-seconds: "2m"
    kube-resilience/ignore: pdb-missing,single-replicas
`,
    ),
  },
  check({ file, documents, resources, ruleIds, report }) {
    for (const resource of resources) {
      for (const { key, value, path } of everyAnnotation(resource)) {
        const ours = key.startsWith(ANNOTATION_PREFIX);
        if (ours && !declaredAnnotationSpec(key)) {
          report({
            resource,
            path,
            target: 'key',
            message: `${key} is not an annotation of Kube Resilience: it is ignored on ${describeResource(resource)}. Kube Resilience reads ${DECLARED_ANNOTATIONS.map((a) => a.key).join(', ')}.`,
          });
          continue;
        }
        if (value !== null && typeof value === 'object') {
          // A map or a list is no value to quote: what string was meant is not known.
          report({
            resource,
            path,
            target: 'value',
            message: `${key} is a YAML ${Array.isArray(value) ? 'list' : 'map'}, not a string: the API server rejects the whole ${resource.kind}. Annotation values must be strings.`,
          });
          continue;
        }
        if (value !== null && value !== undefined && typeof value !== 'string') {
          const written = writtenText(resource, path) ?? String(value);
          const quoted = setField(resource, path, written);
          report({
            resource,
            path,
            target: 'value',
            message: `${key} is a YAML ${typeof value}, not a string: the API server rejects the whole ${resource.kind}. Annotation values must be strings; quote it ("${written}").`,
            fixes: quoted ? [{ title: `Quote the value ("${written}")`, preferred: true, edits: quoted }] : [],
          });
          continue;
        }
        if (!ours) continue;
        const problem = problemWith(key, value, ruleIds);
        if (problem) report({ resource, path, target: 'value', message: problem });
      }
    }
    if (!file) return;
    for (const line of linesOf(file, documents)) {
      const text = file.lines.lineText(line);
      if (!text.includes('kube-resilience-ignore')) continue;
      for (const { id, column } of ignoreCommentIds(text)) {
        if (ruleIds.includes(id)) continue;
        const start = file.lines.lineStart(line) + column;
        report({
          resource: resourceAtLine(file, line),
          range: file.lines.range(start, start + id.length),
          message: `"${id}" is not a rule id, so this kube-resilience-ignore comment ignores nothing. The comment takes rule ids separated by commas, then "-- reason".`,
        });
      }
    }
  },
};

/**
 * A plain scalar's text as written (`yes`, `1.10`), which quoting keeps: the value it was read as loses what was
 * written (`yes` became "true", `1.10` "1.1").
 */
function writtenText(resource: Resource, path: Path): string | undefined {
  const node = nodeAt(resource.node, path);
  // The document's own text, which node ranges are relative to: the file's whole text is not joined for this.
  const text = resource.document?.text;
  if (!node || !isScalar(node) || node.type !== 'PLAIN' || !node.range || text === undefined) return undefined;
  const written = text.slice(node.range[0], node.range[1]);
  return /^[^\s#'"][^\n#]*$/.test(written) ? written.trimEnd() : undefined;
}
