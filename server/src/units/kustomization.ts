import { existsSync, statSync } from 'node:fs';
import { readRegularFileBounded } from '../files/read-bounded';
import { dirname, join, resolve } from 'node:path';
import { parse } from 'yaml';
import { MAX_MANIFEST_BYTES } from '../inventory/manifest-files';

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
  /** Whether it inflates Helm charts (helmCharts, helmChartInflationGenerator). */
  inflatesCharts: boolean;
  /** Remote bases and resources it names (a git repository, a URL): kustomize would fetch them. */
  remote: string[];
  /** Why it could not be read. */
  error?: string;
}

function isRemote(entry: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(entry) || /^(github\.com|gitlab\.com|bitbucket\.org)\//.test(entry) || entry.startsWith('git@');
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

/** Reads a kustomization and sorts what it names into resources, bases, patches and other inputs. */
export function readKustomization(file: string): KustomizationRefs {
  const folder = dirname(file);
  const refs: KustomizationRefs = { file, folder, resourceFiles: [], folders: [], patchFiles: [], inputFiles: [], inflatesCharts: false, remote: [] };
  let value: any;
  try {
    // Bounded and regular files only: a FIFO or a link to /dev/zero named kustomization.yaml must not hang the walk.
    value = parse(readRegularFileBounded(file, MAX_MANIFEST_BYTES).toString('utf8'));
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
  refs.patchFiles.push(...local([...fileEntries(value.patches), ...fileEntries(value.patchesStrategicMerge), ...pathsOf(value.patchesJson6902)]));
  refs.inputFiles.push(
    ...local([
      ...strings(value.transformers),
      ...strings(value.generators),
      ...strings(value.validators),
      ...strings(value.configurations),
      ...strings(value.crds),
      ...pathsOf(value.replacements),
      ...generatorFiles(value.configMapGenerator),
      ...generatorFiles(value.secretGenerator),
    ]).filter((path) => !isFolder(path)),
  );
  if (typeof value.openapi?.path === 'string') refs.inputFiles.push(resolve(folder, value.openapi.path));
  refs.inflatesCharts = Array.isArray(value.helmCharts) || Array.isArray(value.helmChartInflationGenerator);
  return refs;
}

function isFolder(path: string): boolean {
  try {
    return existsSync(path) && statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The remote bases a root builds on, through every kustomization it names in the tree (each with the file that
 * names it): kustomize would fetch them from the network at each render.
 */
export function remoteBasesOf(root: string): { base: string; namedIn: string }[] {
  const found: { base: string; namedIn: string }[] = [];
  const seen = new Set<string>();
  const visit = (folder: string) => {
    const file = kustomizationIn(folder);
    if (!file || seen.has(file)) return;
    seen.add(file);
    const refs = readKustomization(file);
    for (const base of refs.remote) found.push({ base, namedIn: file });
    for (const next of refs.folders) visit(next);
  };
  visit(root);
  return found;
}
