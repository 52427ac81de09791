import { existsSync, statSync } from 'node:fs';
import { isFolder } from '../files/file-kind';
import { readRegularFileBounded } from '../files/read-bounded';
import { dirname, join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { parseYamlValue } from '../manifest/yaml-value';
import { decodeManifest, MAX_MANIFEST_BYTES } from '../inventory/manifest-files';

export const KUSTOMIZATION_NAMES = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'];

/** The kustomization file of a folder, if it has one. */
export function kustomizationIn(folder: string): string | undefined {
  for (const name of KUSTOMIZATION_NAMES) {
    const path = join(folder, name);
    try {
      if (statSync(path).isFile()) return path;
    } catch {
      // not this name
    }
  }
  return undefined;
}

/** What a kustomization names, by role, as absolute paths (remote bases are left out: they are not in the tree). */
export interface KustomizationRefs {
  file: string;
  folder: string;
  /** Resource files it deploys itself. */
  resourceFiles: string[];
  /** Folders of other kustomizations it builds on (resources, bases, components). */
  folders: string[];
  /** Patch files: they change resources, they are never resources. */
  patchFiles: string[];
  /** Other inputs that are no resources either (transformer and generator configs, replacements, generator files). */
  inputFiles: string[];
  /** The folders of the charts in its chart folder it inflates (helmCharts, helmChartInflationGenerator; with plugins on). */
  inflatedCharts: string[];
  /** Remote bases and resources it names (a git repository, a URL): kustomize would fetch them. */
  remote: string[];
  /** Other inputs it names remotely (a patch, a generator's file, an OpenAPI schema at a URL): fetched too. */
  remoteInputs: string[];
  /** Why it could not be read. */
  error?: string;
}

/**
 * A location kustomize fetches, as its repospec parses one before it looks for a local folder: a URL, a forced getter
 * (`git::https://…`), anything after a user name (`git@host:path`, `git@host/path`), GitHub however it is spelt
 * (`github.com/…`, `GitHub.com:…`) and its `gh:` shorthand, and the other bare code hosts.
 */
function isRemote(entry: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(entry) || /^[a-z][a-z0-9+.-]*::/i.test(entry) || /^[^\s/@:]+@[^\s/:]+[:/]\S/.test(entry) || /^(github\.com|gitlab\.com|bitbucket\.org)[/:]/i.test(entry) || /^gh:/i.test(entry);
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** `path:` of entries written as mappings (patches, patchesJson6902, replacements). */
function pathsOf(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry) => {
    if (typeof entry === 'string') return [entry];
    if (entry && typeof entry === 'object' && typeof (entry as { path?: unknown }).path === 'string') return [(entry as { path: string }).path];
    return [];
  });
}

/** Paths of a strategic-merge list: a string is a file unless it is a patch written inline. */
function fileEntries(value: unknown): string[] {
  return pathsOf(value).filter((entry) => !entry.includes('\n') && !/^\s*(apiVersion|kind|-|\{)/.test(entry));
}

/**
 * The files the configurations of transformers, generators and validators name (a ConfigMapGenerator's `files`, a
 * PatchTransformer's `path`, …), whether written inline (a YAML string in the list) or in a file the list names:
 * kustomize reads them as it reads a kustomization's.
 */
function configFiles(entry: string, folder: string): string[] {
  const text = entry.includes('\n') ? entry : configText(entry, folder);
  let configs: unknown[];
  try {
    configs = text === undefined ? [] : parseAllDocuments(text, { uniqueKeys: false }).map((document) => document.toJS({ maxAliasCount: 100 }));
  } catch {
    return [];
  }
  return configs.flatMap((config) => (config && typeof config === 'object' ? [...generatorFiles([config]), ...pathsOf([config]), ...strings((config as { paths?: unknown }).paths)] : []));
}

/**
 * A file kustomize reads for its configuration, as text: bounded and regular files only (a FIFO or a link to /dev/zero
 * must not hang the walk), decoded as manifests are (a byte-order mark, UTF-16).
 */
function readKustomizeFile(path: string): string {
  return decodeManifest(readRegularFileBounded(path, MAX_MANIFEST_BYTES)).text;
}

/** A configuration file's text, read as a kustomization is (bounded, regular files only); none for a folder, a remote or an unreadable one. */
function configText(entry: string, folder: string): string | undefined {
  if (!entry || isRemote(entry)) return undefined;
  try {
    return readKustomizeFile(resolve(folder, entry));
  } catch {
    // A FIFO or a device is said as an input of its own; a folder is a kustomization, read as one.
    return undefined;
  }
}

function generatorFiles(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((generator) => {
    if (!generator || typeof generator !== 'object') return [];
    const files = strings((generator as { files?: unknown }).files).map((f) => f.replace(/^[^=]*=/, ''));
    const envs = strings((generator as { envs?: unknown }).envs);
    const env = typeof (generator as { env?: unknown }).env === 'string' ? [(generator as { env: string }).env] : [];
    return [...files, ...envs, ...env];
  });
}

/**
 * What the charts a kustomization inflates (with plugins on) read besides their chart: values files (fetched when
 * they are URLs), and their repositories when the chart is not in the one folder kustomize looks in
 * (`<chartHome>/<name>-<version>/<name>` when a repository and a version are named, else `<chartHome>/<name>`):
 * kustomize pulls those at each render. Older `helmChartInflationGenerator` entries name theirs `chartRepoUrl`.
 */
function chartInputs(value: any, folder: string): { inputs: string[]; chartFolders: string[] } {
  const home = resolve(folder, typeof value.helmGlobals?.chartHome === 'string' ? value.helmGlobals.chartHome : 'charts');
  const charts = [...(Array.isArray(value.helmCharts) ? value.helmCharts : []), ...(Array.isArray(value.helmChartInflationGenerator) ? value.helmChartInflationGenerator : [])];
  const inputs: string[] = [];
  const chartFolders: string[] = [];
  for (const chart of charts as (Record<string, unknown> | null)[]) {
    inputs.push(...strings([chart?.valuesFile]), ...strings(chart?.additionalValuesFiles));
    const repo = chart?.repo ?? chart?.chartRepoUrl;
    const name = chart?.name ?? chart?.chartName;
    const version = chart?.version ?? chart?.chartVersion;
    if (typeof name !== 'string') continue;
    const hasRepo = typeof repo === 'string' && !!repo;
    const dir = hasRepo && version ? join(home, `${name}-${version}`, name) : join(home, name);
    if (existsSync(dir)) chartFolders.push(dir);
    else if (hasRepo) inputs.push(repo as string);
  }
  return { inputs, chartFolders };
}

/** Reads a kustomization and sorts what it names into resources, bases, patches and other inputs. */
export function readKustomization(file: string): KustomizationRefs {
  const folder = dirname(file);
  const refs: KustomizationRefs = { file, folder, resourceFiles: [], folders: [], patchFiles: [], inputFiles: [], inflatedCharts: [], remote: [], remoteInputs: [] };
  let value: any;
  try {
    // Bounded and regular files only: a FIFO or a link to /dev/zero named kustomization.yaml must not hang the walk.
    // Decoded as manifests are (a byte-order mark, UTF-16): read as UTF-8, one in UTF-16 named nothing, and its root
    // was rendered unchecked.
    value = parseYamlValue(readKustomizeFile(file));
  } catch (error) {
    refs.error = (error as Error).message;
    return refs;
  }
  if (!value || typeof value !== 'object') return refs;
  const local = (entries: string[]) => entries.filter((e) => e && !isRemote(e)).map((e) => resolve(folder, e));
  const bases = [...strings(value.resources), ...strings(value.bases), ...strings(value.components)];
  refs.remote.push(...bases.filter(isRemote));
  for (const target of local(bases)) {
    if (isFolder(target)) refs.folders.push(target);
    else refs.resourceFiles.push(target);
  }
  const charts = chartInputs(value, folder);
  refs.inflatedCharts.push(...charts.chartFolders);
  const configurations = [...strings(value.transformers), ...strings(value.generators), ...strings(value.validators)];
  const patches = [...fileEntries(value.patches), ...fileEntries(value.patchesStrategicMerge), ...pathsOf(value.patchesJson6902)];
  const inputs = [
    // A configuration written inline is no file; those it names, and those its files name, are read.
    ...configurations.filter((entry) => !entry.includes('\n')),
    ...configurations.flatMap((entry) => configFiles(entry, folder)),
    ...strings(value.configurations),
    ...strings(value.crds),
    ...pathsOf(value.replacements),
    ...generatorFiles(value.configMapGenerator),
    ...generatorFiles(value.secretGenerator),
    ...(typeof value.openapi?.path === 'string' ? [value.openapi.path] : []),
    ...charts.inputs,
  ];
  refs.remoteInputs.push(...[...patches, ...inputs].filter(isRemote));
  refs.patchFiles.push(...local(patches));
  refs.inputFiles.push(...local(inputs).filter((path) => !isFolder(path)));
  // A folder named as a transformer, generator or validator is a kustomization kustomize builds: what it reads counts too.
  refs.folders.push(...local(configurations).filter(isFolder));
  return refs;
}

/** An input of a root that is not rendered: kustomize would fetch it, or read a FIFO or device (and wait on it). */
export interface UnrenderedInput {
  entry: string;
  /** The kustomization that names it. */
  namedIn: string;
  why: 'remote base' | 'remote input' | 'not a regular file' | 'unreadable';
}

/**
 * The inputs a root would read from outside its files, through its kustomizations (kustomizationsOf): remote bases
 * and inputs, fetched from the network at each render, and files that are FIFOs or devices, which held each render
 * for its whole timeout.
 */
export function unrenderedInputsOf(kustomizations: readonly KustomizationRefs[]): UnrenderedInput[] {
  const found: UnrenderedInput[] = [];
  for (const refs of kustomizations) {
    // What it names is not known (kustomize may read it otherwise: it takes the last of two keys, where it failed here).
    if (refs.error !== undefined) found.push({ entry: refs.error.split('\n')[0].replace(/:\s*$/, ''), namedIn: refs.file, why: 'unreadable' });
    for (const entry of refs.remote) found.push({ entry, namedIn: refs.file, why: 'remote base' });
    for (const entry of refs.remoteInputs) found.push({ entry, namedIn: refs.file, why: 'remote input' });
    for (const path of [...refs.resourceFiles, ...refs.patchFiles, ...refs.inputFiles]) if (isIrregular(path)) found.push({ entry: path, namedIn: refs.file, why: 'not a regular file' });
  }
  return found;
}

/** Every kustomization a root names in the tree, itself first, each once. */
export function kustomizationsOf(root: string): KustomizationRefs[] {
  const found: KustomizationRefs[] = [];
  const seen = new Set<string>();
  // Depth first in the order written, with a stack of its own: a chain of 12,000 bases overflowed the call stack.
  const pending = [root];
  for (let folder = pending.pop(); folder !== undefined; folder = pending.pop()) {
    // A base's kustomization that is a FIFO is still the one kustomize reads (and waits on): found, readKustomization refuses it.
    const file = kustomizationIn(folder) ?? irregularKustomizationIn(folder);
    if (!file || seen.has(file)) continue;
    seen.add(file);
    const refs = readKustomization(file);
    found.push(refs);
    pending.push(...[...refs.folders].reverse());
  }
  return found;
}

/** A file named as a kustomization in the folder that is no regular file (a FIFO, a device). */
function irregularKustomizationIn(folder: string): string | undefined {
  return KUSTOMIZATION_NAMES.map((name) => join(folder, name)).find(isIrregular);
}

/** Something other than a regular file or a folder (a FIFO, a socket, a device), links followed. */
function isIrregular(path: string): boolean {
  try {
    const stat = statSync(path);
    return !stat.isFile() && !stat.isDirectory();
  } catch {
    return false;
  }
}
