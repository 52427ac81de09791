import { createHash } from 'node:crypto';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ruleDocsHref } from '../language/docs-link';
import { cachedRealPaths, realPathOrUndefined } from '../files/file-kind';
import type { Finding, Rule, Severity } from '../rules/types';

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', info: 'note', hint: 'note' };
/** Code scanning resolves artifact URIs against the checkout; %SRCROOT% is the name tools give it. */
const SRCROOT = '%SRCROOT%';

export interface SarifOptions {
  /** The folder artifact URIs are relative to (`--sarif-root`, default the working directory). */
  root: string;
  /** Warnings about the run itself (a resource type the cluster did not let be read), as the invocation's notifications. */
  warnings?: readonly string[];
}

type Region = { startLine: number; startColumn: number; endLine?: number; endColumn?: number };

function region(range: NonNullable<Finding['range']>, withEnd = true): Region {
  const start = { startLine: range.start.line + 1, startColumn: range.start.character + 1 };
  return withEnd ? { ...start, endLine: range.end.line + 1, endColumn: range.end.character + 1 } : start;
}

/**
 * A relative URI reference to a path below the root: forward slashes (a backslash is a separator on Windows
 * only; elsewhere it is part of a name), spaces and the like escaped, and `./` before a first segment with a
 * colon, which would read as a scheme (`app:v1.yaml`, RFC 3986 §4.2).
 */
function uriReference(path: string): string {
  const reference = encodeURI(sep === '\\' ? path.split(sep).join('/') : path).replace(/[?#]/g, encodeURIComponent);
  return reference.split('/')[0].includes(':') ? `./${reference}` : reference;
}

/** The folder artifact URIs are relative to, as written and with its links resolved; the files' real paths as found. */
interface Root {
  path: string;
  real: string | undefined;
  /** Each file's real path, looked up once (every finding names its file twice, and files have thousands). */
  realPathOf: (path: string) => string | undefined;
}

/**
 * A file as code scanning wants it: relative to %SRCROOT% when it lies below the root, else an
 * absolute file URI (a path such as ../x or /tmp/x would not be found in the checkout). Below the root
 * through a link counts too (the root or the file named through a link to the other's folder, or the
 * working directory, which relative files are resolved against, being the link's target).
 */
function artifactLocation(file: string, root: Root): { uri: string; uriBaseId?: string } {
  if (file === '-') return { uri: 'stdin' };
  if (/^[a-z][a-z0-9+.-]+:\/\//i.test(file)) return { uri: file };
  const absolute = resolve(file);
  const below = pathBelowRoot(absolute, root);
  return below ? { uri: uriReference(below), uriBaseId: SRCROOT } : { uri: pathToFileURL(absolute).toString() };
}

/** Where `absolute` is below the root, as written or, failing that, with links resolved on both sides. */
function pathBelowRoot(absolute: string, root: Root): string | undefined {
  const below = pathBelow(root.path, absolute);
  if (below || !root.real) return below;
  const real = root.realPathOf(absolute);
  return real ? pathBelow(root.real, real) : undefined;
}

function pathBelow(root: string, path: string): string | undefined {
  const below = relative(root, path);
  return below && !below.startsWith(`..${sep}`) && below !== '..' && !isAbsolute(below) ? below : undefined;
}

function helpMarkdown(rule: Rule, href: string | undefined): string {
  const { meta } = rule;
  return [`**${meta.title}**`, meta.description, meta.fix ? `**Fix:** ${meta.fix}` : '**Fix:** none; the finding explains what to change.', href ? `[Rule documentation](${href})` : '']
    .filter(Boolean)
    .join('\n\n');
}

function resourceName(resource: NonNullable<Finding['resource']>): string {
  return `${resource.kind}/${resource.namespace ? `${resource.namespace}/` : ''}${resource.name ?? ''}`;
}

/**
 * What makes a finding the same across commits: its rule, file and resource, not its line (lines move
 * as files are edited) nor its message (it carries counts); the n-th of identical keys stays n-th.
 */
function fingerprints(findings: readonly Finding[], root: Root): string[] {
  const seen = new Map<string, number>();
  return findings.map((f) => {
    const file = f.uri ? artifactLocation(f.uri, root).uri : '';
    // A rendered resource's name may change on every render (Helm's randAlphaNum in a test pod's name): its kind and place say which it is.
    const resource = f.resource ? (f.rendered ? f.resource.kind : resourceName(f.resource)) : '';
    const key = [f.ruleId, file, resource].join('\n');
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    return `${createHash('sha256').update(`${key}\n${n}`).digest('hex').slice(0, 32)}`;
  });
}

/**
 * A link for a log that is uploaded and read elsewhere (code scanning): a page on the web, not one of this machine's
 * files, which is dead there and names the runner's folders.
 */
function publicHref(href: string | undefined): string | undefined {
  return href && /^https?:/.test(href) ? href : undefined;
}

/** What the results that are no rule's say. */
const OTHER_RESULTS: Record<string, string> = {
  'helm-render': 'A Helm chart could not be rendered: what it deploys is not analysed.',
  'kustomize-render': 'A Kustomize root could not be built: what it deploys is not analysed.',
};

/** A rendered unit (a chart, a Kustomize root) relative to the root, as its files are; `.` for the root itself. */
function renderedUnit(unit: string, root: Root): string {
  const absolute = resolve(unit);
  const below = absolute === root.path || (root.real && root.realPathOf(absolute) === root.real) ? '' : pathBelowRoot(absolute, root);
  return (below ?? relative(root.path, absolute)).split(sep).join('/') || '.';
}

/** SARIF 2.1.0 with one run; cluster findings (no file) carry a logical location naming the resource. */
export function toSarif(findings: readonly Finding[], rules: readonly Rule[], version: string, options: SarifOptions = { root: process.cwd() }): object {
  const rootPath = resolve(options.root);
  const root: Root = { path: rootPath, real: realPathOrUndefined(rootPath), realPathOf: cachedRealPaths() };
  const index = new Map(rules.map((rule, i) => [rule.meta.id, i]));
  // Results that are no rule's (a chart that did not render) name a descriptor of the run all the same, as code scanning asks.
  const others = [...new Set(findings.map((f) => f.ruleId).filter((id) => !index.has(id)))];
  for (const [i, id] of others.entries()) index.set(id, rules.length + i);
  const keys = fingerprints(findings, root);
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'kube-resilience',
            version,
            rules: [
              ...rules.map((rule) => {
                const href = publicHref(ruleDocsHref(rule.meta.id));
                return {
                  id: rule.meta.id,
                  name: rule.meta.id,
                  shortDescription: { text: rule.meta.title },
                  fullDescription: { text: rule.meta.description },
                  ...(href ? { helpUri: href } : {}),
                  help: { text: `${rule.meta.description}${rule.meta.fix ? ` Fix: ${rule.meta.fix}` : ''}`, markdown: helpMarkdown(rule, href) },
                  defaultConfiguration: { level: LEVEL[rule.meta.severity] },
                  properties: { tags: [rule.meta.scenario] },
                };
              }),
              ...others.map((id) => {
                const text = OTHER_RESULTS[id] ?? id;
                return { id, name: id, shortDescription: { text }, fullDescription: { text }, help: { text, markdown: text }, defaultConfiguration: { level: 'error' } };
              }),
            ],
          },
        },
        ...(options.warnings?.length ? { invocations: [{ executionSuccessful: true, toolExecutionNotifications: options.warnings.map((text) => ({ level: 'warning', message: { text: plainText(text) } })) }] } : {}),
        originalUriBaseIds: { [SRCROOT]: { uri: pathToFileURL(root.path + sep).toString() } },
        // Regions count columns as the editor does, in UTF-16 code units (SARIF's default is code points).
        columnKind: 'utf16CodeUnits',
        results: findings.map((finding, i) => ({
          ruleId: finding.ruleId,
          ...(index.has(finding.ruleId) ? { ruleIndex: index.get(finding.ruleId) } : {}),
          level: LEVEL[finding.severity],
          message: { text: plainText(finding.message) },
          locations:
            finding.uri && finding.range
              ? [{ physicalLocation: { artifactLocation: artifactLocation(finding.uri, root), region: region(finding.range) } }]
              : finding.resource
                ? [{ logicalLocations: [{ kind: 'resource', name: finding.resource.name ?? finding.resource.kind, fullyQualifiedName: resourceName(finding.resource) }] }]
                : [],
          partialFingerprints: { 'kubeResilienceFinding/v1': keys[i] },
          // Where a finding on a template, values file, base or patch was rendered (relative to the SARIF root), as in the JSON report.
          ...(finding.rendered ? { properties: { rendered: { tool: finding.rendered.tool, unit: renderedUnit(finding.rendered.unit, root) } } } : {}),
          relatedLocations: finding.related.map((r, id) => ({
            id,
            message: { text: plainText(r.message) },
            physicalLocation: { artifactLocation: artifactLocation(r.uri, root), region: region(r.range, false) },
          })),
        })),
      },
    ],
  };
}

/**
 * A message as SARIF's plain text: `[text](target)` in it is an embedded link (SARIF 2.1.0 §3.11.6), so square brackets
 * of its own (a resource named `[Open fix](https://…)`, a YAML error's "]") are escaped with a backslash.
 */
function plainText(message: string): string {
  return message.replace(/[[\]]/g, (bracket) => `\\${bracket}`);
}
