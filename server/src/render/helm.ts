import { readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isMap, isNode, isSeq, type Document, type Node as YamlNode } from 'yaml';
import { parseYamlDocument } from '../manifest/yaml-value';
import { readRegularFileBounded, unreadableFile } from '../files/read-bounded';
import { within } from '../files/within';
import { decodeManifest } from '../inventory/manifest-files';
import { parseChunk } from '../manifest/parse';
import { lineNumberAt } from '../manifest/text';
import { splitDocuments } from '../manifest/split';
import { runAtOnce, type StepRunner, type Steps } from '../steps';
import { chartInputsOutside } from './chart-inputs';
import { helmErrorPlace, helmErrorWords, type HelmErrorPlace } from './helm-errors';
import { HelmSourceMapper, type HelmDocument, type Subchart } from './helm-source-map';
import { valuesKeyLine, valuesSourceFor, type ValuesSource } from './helm-values';
import { documentsPast, MAX_RENDER_BYTES, tooManyDocuments } from './render-bounds';
import { runTool, ToolError } from './run-tool';
import type { RenderedUnit, RenderProblem, SourceLocation, SourceMapper } from './types';
import { noTemporaryFolder, temporaryFolder, type TemporaryFolder } from '../files/temporary-folder';

export interface HelmRenderOptions {
  /** The helm program (found by the caller from kubeResilience.helm.path, extraPath or PATH). */
  helm: string;
  /** Release name; `release` by default. */
  release?: string;
  namespace?: string;
  /** Values files after the chart's own values.yaml, in the order Helm merges them (later wins). */
  valuesFiles?: string[];
  /** `--set` assignments (`replicaCount=2`), applied after the files. */
  set?: string[];
  timeoutMs?: number;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
  /** Runs the work on the rendered stream (a server runs it in slices); default: at once. */
  run?: StepRunner;
}

export const DEFAULT_RELEASE = 'release';

/** A release name as Helm validates it (DNS-1123 labels joined by dots). */
const RELEASE_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
/** Templates and values files larger than this are not read for mapping: nothing written by hand is. */
const MAX_SOURCE_BYTES = 4 * 1024 * 1024;

/**
 * The kinds a current cluster serves, as `helm install` sees them from its discovery: `helm template` alone knows
 * group versions only, so `.Capabilities.APIVersions.Has "policy/v1/PodDisruptionBudget"` took a chart's branch
 * for clusters older than 1.21 (a policy/v1beta1 budget) where any supported cluster takes the other.
 */
const CURRENT_KINDS = [
  'apps/v1/Deployment',
  'apps/v1/StatefulSet',
  'apps/v1/DaemonSet',
  'apps/v1/ReplicaSet',
  'batch/v1/Job',
  'batch/v1/CronJob',
  'policy/v1/PodDisruptionBudget',
  'autoscaling/v2/HorizontalPodAutoscaler',
  'networking.k8s.io/v1/Ingress',
  'networking.k8s.io/v1/NetworkPolicy',
  'v1/Service',
  'v1/Pod',
];

/**
 * Renders a chart with `helm template` as an install would (its subcharts under charts/ with it), never
 * fetching anything: dependencies that are not vendored are reported instead of downloaded, and Helm runs
 * with empty cache, config and data folders and no kubeconfig, so no repository or cluster is reached.
 */
export async function renderHelmChart(chartDir: string, options: HelmRenderOptions): Promise<RenderedUnit> {
  const root = resolve(chartDir);
  const release = options.release?.trim() || DEFAULT_RELEASE;
  const valuesFiles = (options.valuesFiles ?? []).map((file) => resolve(file));
  const chartYaml = join(root, 'Chart.yaml');
  const unit = (text: string, problems: RenderProblem[], mapper: SourceMapper = chartOnly(chartYaml)): RenderedUnit => ({ tool: 'helm', root, text, mapper, problems, ...(options.namespace ? { namespace: options.namespace } : {}) });

  // Helm's own rule for a release name; one starting with `-` was taken for a flag (`--output-dir=…` wrote the render
  // outside the tree, and reported nothing).
  if (!RELEASE_NAME.test(release) || release.length > 53) {
    return unit('', [{ location: { path: chartYaml, line: 0 }, message: `the release name "${release}" is not one Helm takes: lowercase letters, digits, "-" and ".", starting and ending with a letter or digit, at most 53 characters`, severity: 'error' }]);
  }
  // As --values is checked on the command line, a values file from the editor's settings: helm waited 60 s on a FIFO.
  for (const file of valuesFiles) {
    const unreadable = unreadableFile(file);
    if (unreadable) return unit('', [{ location: { path: chartYaml, line: 0 }, message: `the values file ${file} cannot be read: ${unreadable}`, severity: 'error' }]);
  }
  const chart = readChart(root);
  if ('problem' in chart) return unit('', [chart.problem]);
  const missing = missingDependencies(root, chart);
  if (missing) return unit('', [missing]);
  const outside = chartInputsOutside(root, chart.name);
  if (outside) return unit('', [outside]);

  let folder: TemporaryFolder;
  try {
    folder = temporaryFolder('kube-resilience-helm-');
  } catch (error) {
    return unit('', [{ location: { path: chartYaml, line: 0 }, message: `helm template was not run: ${noTemporaryFolder(error)}`, severity: 'error' }]);
  }
  const home = folder.path;
  let result;
  try {
    const emptyKubeconfig = join(home, 'kubeconfig');
    writeFileSync(emptyKubeconfig, '');
    // Every value joined to its flag, and the names after `--`: none is read as a flag of its own.
    const args = ['template', ...(options.namespace ? [`--namespace=${options.namespace}`] : []), ...CURRENT_KINDS.map((kind) => `--api-versions=${kind}`)];
    for (const file of valuesFiles) args.push(`--values=${file}`);
    for (const assignment of options.set ?? []) args.push(`--set=${assignment}`);
    args.push('--', release, root);
    result = await runTool(options.helm, args, {
      cwd: root,
      maxStdoutBytes: MAX_RENDER_BYTES,
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      env: {
        // Helm's own settings (HELM_NAMESPACE, HELM_KUBECONTEXT, HELM_REGISTRY_CONFIG…) are the user's shell's, not the
        // render's: HELM_NAMESPACE rendered another namespace than the one asked for.
        ...withoutHelmSettings(options.env ?? process.env),
        HELM_CACHE_HOME: join(home, 'cache'),
        HELM_CONFIG_HOME: join(home, 'config'),
        HELM_DATA_HOME: join(home, 'data'),
        HELM_PLUGINS: join(home, 'plugins'),
        KUBECONFIG: emptyKubeconfig,
      },
    });
  } catch (error) {
    if (error instanceof ToolError) return { ...unit('', [{ location: { path: chartYaml, line: 0 }, message: `helm template failed: ${error.message}`, severity: 'error' }]), ...(error.reason === 'timeout' ? { transient: true } : {}) };
    throw error;
  } finally {
    folder.remove();
  }
  if (result.exitCode !== 0) return unit('', [renderError(root, chart.name, chartYaml, result.stderr || `helm exited with ${result.exitCode ?? result.signal}`, valuesFiles)]);

  const text = result.stdout;
  if (documentsPast(text)) return unit('', [{ location: { path: chartYaml, line: 0 }, message: tooManyDocuments(`Chart ${chart.name}`), severity: 'error' }]);
  const templates = new Map<string, string>();
  const documents = await (options.run ?? runAtOnce)(renderedDocuments(root, text, templates));
  const ownValues = chartValues(root, valuesFiles);
  const mapper = new HelmSourceMapper({
    chartDir: root,
    release,
    documents,
    templates,
    valuesFor: (document) => valuesChain(document.subcharts ?? [], ownValues),
    setKeys: (options.set ?? []).flatMap(setKeysOf),
  });
  return unit(text, [], mapper);
}

function withoutHelmSettings(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('HELM_')));
}

interface ChartFacts {
  name: string;
  /** Each with the place of its entry in the list. */
  dependencies: { name: string; alias?: string; repository?: string; at: SourceLocation }[];
  /** The file and line where the dependencies are listed (Chart.yaml, or requirements.yaml of an apiVersion v1 chart). */
  dependenciesAt?: { path: string; line: number };
}

/** Each rendered document with the template it came from (read into `templates`), pausing after each one it parses. */
function* renderedDocuments(root: string, text: string, templates: Map<string, string>): Steps<HelmDocument[]> {
  const documents: HelmDocument[] = [];
  const folders = new SubchartFolders();
  for (const chunk of splitDocuments(text)) {
    const source = /^# Source: (.+)$/m.exec(chunk.text)?.[1].trim();
    const place = source ? templatePlace(root, source, folders) : undefined;
    const template = place?.path;
    if (template && !templates.has(template)) {
      const templateText = readSource(template);
      if (templateText !== undefined) templates.set(template, templateText);
    }
    const object = parseChunk(chunk.text).value;
    documents.push(template && templates.has(template) ? { template, source, subcharts: place!.subcharts, object } : { object, placedAt: place?.packedAt });
    yield;
  }
  return documents;
}

/**
 * The template Helm names `parent/charts/sub/templates/x.yaml`, and the subcharts on its way from the chart. Helm
 * names a subchart by its Chart.yaml name, or by the alias its parent gives it, and its values sit under that
 * name: the folder it is vendored in may be named otherwise (an aliased subchart's findings went to Chart.yaml).
 */
function templatePlace(root: string, chartPath: string, folders: SubchartFolders): { path?: string; subcharts: Subchart[]; packedAt?: SourceLocation } | undefined {
  const parts = chartPath.split('/').slice(1);
  const subcharts: Subchart[] = [];
  let dir = root;
  while (parts.length > 2 && parts[0] === 'charts') {
    const key = parts[1];
    const folder = folders.of(dir).folders.get(key);
    // Packed (a .tgz, as `helm dependency build` leaves it): none of its files can be shown or edited, but the
    // entry that brings it in can.
    if (!folder) return { subcharts, packedAt: folders.of(dir).listedAt.get(key) };
    subcharts.push({ dir: (dir = folder), key });
    parts.splice(0, 2);
  }
  const path = parts.length ? resolve(dir, ...parts) : undefined;
  return path && within(root, path) ? { path, subcharts } : undefined;
}

/**
 * For each chart folder, its unpacked subcharts' folders and the entries of its dependencies list, by the name Helm
 * gives them (their own, or an alias).
 */
class SubchartFolders {
  private readonly byChart = new Map<string, { folders: Map<string, string>; listedAt: Map<string, SourceLocation> }>();

  of(chartDir: string): { folders: Map<string, string>; listedAt: Map<string, SourceLocation> } {
    const known = this.byChart.get(chartDir);
    if (known) return known;
    const folders = new Map<string, string>();
    const listedAt = new Map<string, SourceLocation>();
    for (const { name, dir } of vendoredFolders(chartDir)) if (!folders.has(name)) folders.set(name, dir);
    const chart = readChart(chartDir);
    for (const { name, alias, at } of 'problem' in chart ? [] : chart.dependencies) {
      if (alias && folders.has(name)) folders.set(alias, folders.get(name)!);
      listedAt.set(alias ?? name, at);
    }
    this.byChart.set(chartDir, { folders, listedAt });
    return { folders, listedAt };
  }
}

function readChart(root: string): ChartFacts | { problem: RenderProblem } {
  const chartYaml = join(root, 'Chart.yaml');
  const text = readSource(chartYaml);
  const problem = (message: string, path = chartYaml): { problem: RenderProblem } => ({ problem: { location: { path, line: 0 }, message, severity: 'error' } });
  if (text === undefined) return problem('Chart.yaml cannot be read (not a regular file, or larger than 4 MiB): the chart is not rendered.');
  let name: unknown;
  let dependencies: ChartFacts['dependencies'];
  let dependenciesAt: ChartFacts['dependenciesAt'];
  try {
    // Merge keys (`- <<: *dep`) as Helm reads them.
    const doc = parseYamlDocument(text, { merge: true });
    name = doc.errors.length ? undefined : (doc.toJS() as { name?: unknown } | null)?.name;
    if (typeof name !== 'string') return problem('Chart.yaml does not parse as a chart (it needs at least a name): the chart is not rendered.');
    dependencies = listed(doc, text, chartYaml);
    dependenciesAt = dependencies.length ? { path: chartYaml, line: keyLine(doc, text, 'dependencies') } : undefined;
  } catch (error) {
    // Aliases that expand past the parser's bound: it stopped the whole run.
    return problem(`Chart.yaml cannot be read: ${(error as Error).message}: the chart is not rendered.`);
  }
  if (!dependencies.length) {
    // Charts of apiVersion v1 list them in requirements.yaml.
    const requirementsPath = join(root, 'requirements.yaml');
    const requirements = readSource(requirementsPath);
    try {
      const parsed = requirements !== undefined ? parseYamlDocument(requirements, { merge: true }) : undefined;
      dependencies = parsed && !parsed.errors.length ? listed(parsed, requirements!, requirementsPath) : [];
      if (dependencies.length && parsed) dependenciesAt = { path: requirementsPath, line: keyLine(parsed, requirements!, 'dependencies') };
    } catch (error) {
      return problem(`requirements.yaml cannot be read: ${(error as Error).message}: the chart is not rendered.`, requirementsPath);
    }
  }
  return { name, dependencies, dependenciesAt };
}

function listed(doc: Document, text: string, path: string): ChartFacts['dependencies'] {
  const list = isMap(doc.contents) ? doc.get('dependencies', true) : undefined;
  if (!isSeq(list)) return [];
  return list.items.flatMap((item) => {
    // Read with the document, so that aliases resolve (`- *dep`, `alias: *name`): read without it they were dropped.
    const d = isNode(item) ? (item.toJS(doc) as Record<string, unknown> | null) : undefined;
    if (!d || typeof d !== 'object' || typeof d.name !== 'string') return [];
    const named = (key: string) => (typeof d[key] === 'string' ? (d[key] as string) : undefined);
    return [{ name: d.name, alias: named('alias'), repository: named('repository'), at: { path, line: lineNumberAt(text, (item as YamlNode).range?.[0] ?? 0) } }];
  });
}

function keyLine(doc: Document, text: string, key: string): number {
  const contents = doc.contents;
  if (!isMap(contents)) return 0;
  const pair = contents.items.find((p: any) => p?.key?.value === key) as any;
  return lineNumberAt(text, pair?.key?.range?.[0] ?? 0);
}

/** The entries under a chart's charts/ folder (at most 1,000: a chart vendors a few). */
function vendoredEntries(chartDir: string): string[] {
  try {
    return readdirSync(join(chartDir, 'charts')).slice(0, 1000);
  } catch {
    return [];
  }
}

/** The unpacked charts under charts/: each folder's entry, its Chart.yaml name (the entry when it has none) and path. */
function vendoredFolders(chartDir: string): { entry: string; name: string; dir: string }[] {
  return vendoredEntries(chartDir).flatMap((entry) => {
    const dir = join(chartDir, 'charts', entry);
    const chartText = readSource(join(dir, 'Chart.yaml'));
    if (chartText === undefined) return [];
    return [{ entry, name: /^name:\s*["']?([^"'\s#]+)/m.exec(chartText)?.[1] ?? entry, dir }];
  });
}

/** Names of the charts vendored under charts/ (unpacked folders and packed .tgz files). */
function vendoredCharts(root: string): { names: Set<string>; archives: string[] } {
  const names = new Set<string>();
  for (const { entry, name } of vendoredFolders(root)) names.add(entry).add(name);
  return { names, archives: vendoredEntries(root).filter((entry) => entry.endsWith('.tgz')) };
}

/** One problem on the dependencies list naming every dependency that is not under charts/. */
function missingDependencies(root: string, chart: ChartFacts): RenderProblem | undefined {
  if (!chart.dependencies.length) return undefined;
  const vendored = vendoredCharts(root);
  const missing = chart.dependencies.filter((d) => !vendored.names.has(d.name) && !vendored.archives.some((a) => a.startsWith(`${d.name}-`)));
  if (!missing.length) return undefined;
  const named = missing.map((d) => (d.repository ? `${d.name} (${d.repository})` : d.name)).join(', ');
  const location = chart.dependenciesAt ?? { path: join(root, 'Chart.yaml'), line: 0 };
  return {
    location,
    severity: 'warning',
    message: `Chart ${chart.name} is not analysed: ${missing.length === 1 ? 'its dependency' : 'its dependencies'} ${named} ${missing.length === 1 ? 'is' : 'are'} not vendored under charts/. Rendering never downloads charts; run \`helm dependency build\` in the chart folder (it fetches them), and the chart is analysed as it deploys.`,
  };
}

/** A failed render as a problem at the template line Helm names, in Helm's own words. */
function renderError(root: string, chartName: string, chartYaml: string, stderr: string, valuesFiles: readonly string[]): RenderProblem {
  const words = helmErrorWords(stderr);
  const place = helmErrorPlace(words, chartName);
  return { location: (place && errorLocation(root, place, valuesFiles)) ?? { path: chartYaml, line: 0 }, message: `helm template failed for chart ${chartName}: ${words}`, severity: 'error' };
}

/** Where Helm's error place is in the chart's files: a template line, a values file's line, a values key's line. */
function errorLocation(root: string, place: HelmErrorPlace, valuesFiles: readonly string[]): SourceLocation | undefined {
  if (place.valuesKey) {
    // The key's line in the values file that sets it last (as helm merged them), else in the chart's own.
    const source = valuesSourceFor(chartValues(root, valuesFiles), place.valuesKey);
    const line = source && valuesKeyLine(source, place.valuesKey);
    return source && line !== undefined ? { path: source.path, line } : undefined;
  }
  const path = place.values ? resolve(root, place.chartPath) : templatePlace(root, place.chartPath, new SubchartFolders())?.path;
  return path && readSource(path) !== undefined ? { path, line: place.line ?? 0, character: place.character } : undefined;
}

/** A file's text when it is a regular file of reasonable size; undefined otherwise. */
function readSource(path: string): string | undefined {
  try {
    return decodeManifest(readRegularFileBounded(path, MAX_SOURCE_BYTES)).text;
  } catch {
    return undefined;
  }
}

/** The chart's own values files as helm merges them: its values.yaml, then each `--values` file. */
function chartValues(root: string, valuesFiles: readonly string[]): ValuesSource[] {
  return [join(root, 'values.yaml'), ...valuesFiles].flatMap((path) => valuesSource(path, []));
}

function valuesSource(path: string, prefix: string[]): ValuesSource[] {
  const text = readSource(path);
  return text === undefined ? [] : [{ path, text, prefix }];
}

/**
 * The values files a template's `.Values` come from, lowest precedence first: for a subchart
 * (charts/sub/templates/x.yaml) its own values.yaml, then each parent's files under the subchart's key.
 */
function valuesChain(subcharts: readonly Subchart[], ownValues: ValuesSource[]): ValuesSource[] {
  const keys = subcharts.map((subchart) => subchart.key);
  const chain: ValuesSource[] = [];
  for (let depth = subcharts.length; depth > 0; depth--) chain.push(...valuesSource(join(subcharts[depth - 1].dir, 'values.yaml'), keys.slice(depth)));
  chain.push(...ownValues.map((source) => ({ ...source, prefix: keys })));
  return chain;
}

/** The keys a `--set a.b=1,c=2` assignment gives values to. */
function setKeysOf(assignment: string): string[][] {
  return assignment
    .split(/(?<!\\),/)
    .map((part) => part.split('=')[0].trim())
    .filter(Boolean)
    .map((key) => key.replace(/\[\d+\]/g, '').split(/(?<!\\)\./));
}

/** For a unit that did not render: every place is the chart's Chart.yaml. */
function chartOnly(chartYaml: string): SourceMapper {
  return { locate: () => [{ path: chartYaml, line: 0 }], translateFix: () => undefined };
}
