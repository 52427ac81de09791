import { writeFileSync } from 'node:fs';
import { basename, join, relative, resolve, sep } from 'node:path';
import { shownWithin } from '../files/within';
import { isMap, stringify } from 'yaml';
import { parseChunk, parseManifest, parseManifestInSteps } from '../manifest/parse';
import { runAtOnce, runSteps, type StepRunner, type Steps } from '../steps';
import type { Path } from '../manifest/path';
import { kustomizationIn, readKustomization } from '../units/kustomization';
import { documentsPast, MAX_RENDER_BYTES, tooManyDocuments } from './render-bounds';
import { findTool, runTool, toolEnv, type ToolLookup } from './run-tool';
import { translateKustomizeFix } from './kustomize-fix';
import { jsonOrInlinePatchSetting, patchFilesOf, replacementSetting, setterSaid, targetSelects, type FieldSetter, type Selected } from './kustomize-setters';
import { nameSeenBy } from './kustomize-names';
import { shortened } from '../shortened';
import { documentResource, findResource, locationIn, readSourceText, SourceFiles, sourcePath, writesField } from './source-yaml';
import { withoutAnnotations } from './without-annotations';
import { namedFew } from './also-changes';
import { stringMap } from '../manifest/workload';
import type { FieldChange, RenderedUnit, SourceLocation, SourceMapper } from './types';
import { noTemporaryFolder, temporaryFolder, type TemporaryFolder } from '../files/temporary-folder';

const ORIGIN = 'config.kubernetes.io/origin';
const TRANSFORMATIONS = 'alpha.config.kubernetes.io/transformations';
const IDENTITY_FIELDS = [['kind'], ['apiVersion'], ['metadata', 'name'], ['metadata', 'namespace']];
const PATCH_TRANSFORMERS = new Set(['PatchTransformer', 'PatchStrategicMergeTransformer', 'PatchJson6902Transformer']);

export interface KustomizeOptions extends ToolLookup {
  /** Plugins, exec functions and helmCharts inflation run workspace code: only in a trusted workspace that asks. */
  enablePlugins?: boolean;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Reads a source file (an editor passes its open documents' text); default: the file on disk. */
  readText?: (path: string) => string | undefined;
  /** Runs the work on the rendered stream (a server runs it in slices); default: at once. */
  run?: StepRunner;
}

/** Neither kustomize nor kubectl was found: the unit is analysed file by file, as without rendering. */
export class RenderToolMissing extends Error {
  constructor(
    readonly tool: string,
    readonly hint: string,
  ) {
    super(`${tool} was not found: ${hint}`);
  }
}

/** What rendered a resource: the file it came from and the kustomizations that patched it. */
export interface KustomizeOrigin {
  kind: string;
  name: string | null;
  /** The file whose document became this resource (absent for generated ones). */
  path?: string;
  /** The kustomization that generated or configured it. */
  configuredIn?: string;
  /** Every transformation of it, in the order applied (a patch, a namespace, a name prefix or suffix), with the kustomization that configured it. */
  transformations: { kind: string; configuredIn: string }[];
}

/** The kustomization files whose patches changed a resource, in the order applied. */
export function patchedIn(origin: KustomizeOrigin): string[] {
  return origin.transformations.filter((t) => PATCH_TRANSFORMERS.has(t.kind)).map((t) => t.configuredIn);
}

/** Which program renders: `kustomize build`, else `kubectl kustomize`. */
export function kustomizeCommand(options: ToolLookup): { program: string; args: string[]; searched: string[] } {
  if (options.configuredPath?.trim()) {
    const found = findTool('kustomize', options);
    if (!found.path) throw new RenderToolMissing(options.configuredPath, `kubeResilience.kustomize.path names no program that runs`);
    return { program: found.path, args: basename(found.path).startsWith('kubectl') ? ['kustomize'] : ['build'], searched: found.searched };
  }
  const kustomize = findTool('kustomize', options);
  if (kustomize.path) return { program: kustomize.path, args: ['build'], searched: kustomize.searched };
  const kubectl = findTool('kubectl', options);
  if (kubectl.path) return { program: kubectl.path, args: ['kustomize'], searched: kubectl.searched };
  throw new RenderToolMissing('kustomize', 'install kustomize or kubectl (which has it built in) on PATH, or name it in kubeResilience.kustomize.path');
}

/** Renders a Kustomize root the way `kubectl apply -k` would see it, with a way back to its bases and patches. */
export async function renderKustomize(root: string, options: KustomizeOptions = {}): Promise<RenderedUnit> {
  const absoluteRoot = resolve(root);
  const { program, args, searched } = kustomizeCommand(options);
  // A wrapper asks for the origin of every resource without touching the user's tree.
  let folder: TemporaryFolder;
  try {
    folder = temporaryFolder('kube-resilience-kustomize-');
  } catch (error) {
    return notRendered(absoluteRoot, `kustomize was not run: ${noTemporaryFolder(error)}`);
  }
  const wrapper = folder.path;
  let output: Awaited<ReturnType<typeof runTool>>;
  try {
    writeFileSync(
      join(wrapper, 'kustomization.yaml'),
      stringify({ resources: [relative(wrapper, absoluteRoot).split('\\').join('/')], buildMetadata: ['originAnnotations', 'transformerAnnotations'] }),
    );
    const flags = options.enablePlugins ? ['--enable-alpha-plugins', '--enable-exec', '--enable-helm'] : [];
    output = await runTool(program, [...args, ...flags, wrapper], { env: toolEnv(searched, options.env), timeoutMs: options.timeoutMs ?? 60_000, signal: options.signal, maxStdoutBytes: MAX_RENDER_BYTES });
  } finally {
    folder.remove();
  }
  if (output.exitCode !== 0) {
    // The root is named as the wrapper names it (a path relative to a temporary folder): by its own path instead.
    const fromWrapper = relative(wrapper, absoluteRoot).split('\\').join('/');
    const said = shortened(errorLines(output.stderr).join(' ').replaceAll(`'${fromWrapper}'`, `'${absoluteRoot}'`).replaceAll(wrapper, '<wrapper>')) || `exit ${output.exitCode}`;
    return notRendered(absoluteRoot, `kustomize could not build ${basename(absoluteRoot)}: ${said}`, missingFileEntry(output.stderr, absoluteRoot, options.readText));
  }
  if (documentsPast(output.stdout)) return notRendered(absoluteRoot, tooManyDocuments(basename(absoluteRoot)));
  const { text, origins } = await (options.run ?? runAtOnce)(stripBuildMetadataInSteps(output.stdout, wrapper));
  return { tool: 'kustomize', root: absoluteRoot, text, mapper: kustomizeMapper(absoluteRoot, text, origins, new SourceFiles(options.readText)), problems: [] };
}

/**
 * What kustomize said of its failure: from its last `error:` line on (one quoting a generator's configuration spans
 * lines, and its last three left out what failed), else its last three lines.
 */
function errorLines(stderr: string): string[] {
  const lines = stderr.trim().split('\n');
  for (let i = lines.length - 1; i >= 0; i--) if (/^error:/i.test(lines[i])) return lines.slice(i);
  return lines.slice(-3);
}

/** A root that gave no render to analyse, and why, said on its kustomization (or where the error points). */
function notRendered(root: string, message: string, at?: SourceLocation): RenderedUnit {
  const file = kustomizationIn(root) ?? join(root, 'kustomization.yaml');
  return { tool: 'kustomize', root, text: '', mapper: emptyMapper(file), problems: [{ location: at ?? { path: file, line: 0 }, message, severity: 'error' }] };
}

/**
 * The entry of a kustomization naming a file kustomize did not find (`lstat /…/missing-patch.yaml: no such file`, or
 * the folder on its way that is missing): the line, in the root's kustomization or a base's, whose path leads there.
 */
function missingFileEntry(stderr: string, root: string, readText: (path: string) => string | undefined = readSourceText): SourceLocation | undefined {
  const missing = /lstat (.+?): no such file or directory/.exec(stderr)?.[1];
  if (!missing) return undefined;
  const seen = new Set<string>();
  for (const folders = [root]; folders.length; ) {
    const folder = folders.shift()!;
    const kustomization = kustomizationIn(folder);
    if (seen.has(folder) || !kustomization) continue;
    seen.add(folder);
    const lines = readText(kustomization)?.split('\n') ?? [];
    for (let line = 0; line < lines.length; line++) {
      const entry = /^(\s*(?:-\s*)?(?:path:\s*)?['"]?)([^'"#\s]+)/.exec(lines[line]);
      const leads = entry && resolve(folder, entry[2]);
      if (leads && (leads === missing || leads.startsWith(missing + sep))) return { path: kustomization, line, character: entry[1].length };
    }
    folders.push(...readKustomization(kustomization).folders);
  }
  return undefined;
}

function emptyMapper(file: string): SourceMapper {
  return { locate: () => [{ path: file, line: 0 }], translateFix: () => undefined };
}

/**
 * Takes kustomize's bookkeeping annotations out of the rendered stream, keeping what they say per document.
 * The stream is read with the manifest reader and the annotations' lines cut out of its text, which the
 * analysis then parses again from the cache; writing each document again with the yaml package took most of
 * the time a render spent beyond kustomize's own.
 */
export function stripBuildMetadata(stream: string, wrapper: string): { text: string; origins: KustomizeOrigin[] } {
  return runSteps(stripBuildMetadataInSteps(stream, wrapper));
}

/** stripBuildMetadata, pausing after each document it parses or strips. */
function* stripBuildMetadataInSteps(stream: string, wrapper: string): Steps<{ text: string; origins: KustomizeOrigin[] }> {
  const origins: KustomizeOrigin[] = [];
  const texts: string[] = [];
  const file = yield* parseManifestInSteps(RENDERED_URI, stream);
  for (const { index, parsed } of file.documents) {
    yield;
    if (!isMap(parsed.root)) continue;
    const object = parsed.value as Record<string, any>;
    const annotations = object.metadata?.annotations ?? {};
    const origin = parseAnnotation(annotations[ORIGIN]);
    const transformations = parseAnnotation(annotations[TRANSFORMATIONS]);
    const at = (path: unknown) => (typeof path === 'string' ? resolve(wrapper, path) : undefined);
    origins.push({
      kind: String(object.kind ?? ''),
      name: typeof object.metadata?.name === 'string' ? object.metadata.name : null,
      path: at(origin?.path),
      configuredIn: at(origin?.configuredIn),
      transformations: (Array.isArray(transformations) ? transformations : []).flatMap((t: any) => {
        const configuredIn = at(t?.configuredIn);
        return configuredIn && typeof t?.configuredBy?.kind === 'string' ? [{ kind: t.configuredBy.kind, configuredIn }] : [];
      }),
    });
    const stripped = withoutAnnotations(file, index, [ORIGIN, TRANSFORMATIONS]).replace(/^---[^\n]*\n/, '');
    texts.push(stripped.endsWith('\n') ? stripped : `${stripped}\n`);
  }
  return { text: texts.join('---\n'), origins };
}

/** The name the rendered stream is parsed under (its documents are cached by their text, not by this). */
const RENDERED_URI = 'kustomize-build.yaml';

function parseAnnotation(value: unknown): any {
  return typeof value === 'string' ? parseChunk(value).value : undefined;
}

/** The `count` of a kustomization's `replicas:` entry for `name`. */
function replicasEntry(kustomization: string, name: string | null, sources: SourceFiles): FieldSetter | undefined {
  const file = sources.get(kustomization);
  const resource = file && documentResource(file);
  const entries = resource?.object?.replicas;
  const at = Array.isArray(entries) ? entries.findIndex((e: any) => e?.name === name && e?.count !== undefined) : -1;
  return at >= 0 ? { resource: resource!, path: ['replicas', at, 'count'] } : undefined;
}


/** Maps each rendered field to the patch that sets it, else its line in the origin file, else the origin's `kind:`. */
function kustomizeMapper(root: string, text: string, origins: KustomizeOrigin[], sources: SourceFiles): SourceMapper {
  // The analysis hands over its parse of the same text (useRendered); parsed here only for a mapper used without it.
  let objects: readonly unknown[] | undefined;
  const renderedObject = (index: number) => (objects ??= parseManifest(RENDERED_URI, text).documents.map((d) => d.parsed.value))[index] as Record<string, any>;
  const rootKustomization = () => origins.map((o) => patchedIn(o).at(-1)).find((k) => k !== undefined);
  const patchSetting = (index: number, path: Path): FieldSetter | undefined => {
    const origin = origins[index];
    // The fields that name the target are in every patch; they say nothing about what the patch sets.
    if (!origin || IDENTITY_FIELDS.some((f) => f.every((step, i) => path[i] === step))) return undefined;
    // The last transformation applied decides: an overlay's patch (or `replicas:`) wins over its base's.
    const applied = [...new Map(origin.transformations.map((t) => [`${t.kind} ${t.configuredIn}`, t])).values()].reverse();
    for (const { kind, configuredIn: kustomization } of applied) {
      const name = nameSeenBy(origin, sources, kustomization);
      if (kind === 'ReplicaCountTransformer' && path.length === 2 && path[0] === 'spec' && path[1] === 'replicas') {
        const set = replicasEntry(kustomization, name, sources);
        if (set) return set;
        continue;
      }
      const metadata = renderedObject(index)?.metadata;
      const selected: Selected = { kind: origin.kind, name, namespace: String(metadata?.namespace ?? ''), labels: stringMap(metadata?.labels), annotations: stringMap(metadata?.annotations) };
      if (kind === 'ReplacementTransformer') {
        const set = replacementSetting(kustomization, sources, selected, path);
        if (set) return set;
        continue;
      }
      if (!PATCH_TRANSFORMERS.has(kind)) continue;
      for (const { path: patchFile, target } of patchFilesOf(kustomization, sources).reverse()) {
        const patch = sources.get(patchFile);
        // A patch with a `target` patches what the target selects, whatever name and kind the patch writes.
        const resource = patch && (target === undefined ? findResource(patch, origin.kind, name) : targetSelects(target, selected) ? documentResource(patch) : undefined);
        if (!resource || (target === undefined && (resource.name !== name || resource.kind !== origin.kind))) continue;
        const inPatch = sourcePath(resource, renderedObject(index), path);
        if (inPatch && writesField(resource, inPatch)) return { resource, path: inPatch };
      }
      const other = jsonOrInlinePatchSetting(kustomization, sources, selected, path);
      if (other) return other;
    }
    return undefined;
  };
  const originResource = (index: number) => {
    const origin = origins[index];
    const file = origin?.path ? sources.get(origin.path) : undefined;
    return file ? findResource(file, origin!.kind, nameSeenBy(origin!, sources)) : undefined;
  };
  const locate = (index: number, path: Path): SourceLocation[] => {
    const patched = patchSetting(index, path);
    if (patched) return [locationIn(patched.resource, patched.path)];
    const source = originResource(index);
    if (source) {
      const inSource = sourcePath(source, renderedObject(index), path);
      return [locationIn(source, inSource ?? [])];
    }
    const origin = origins[index];
    const where = origin?.configuredIn ?? origin?.path ?? rootKustomization() ?? join(root, 'kustomization.yaml');
    return [{ path: where, line: 0 }];
  };
  // The documents each patch sets a field of, found once per patch and field: asked for every finding, a scan of
  // every document each time would be quadratic in a root's resources.
  const patchedBy = new Map<string, number[]>();
  const settingOf = (setter: FieldSetter, path: Path) => `${setter.resource.file?.uri}\0${setter.resource.document?.index}\0${path.join('\0')}`;
  /** The other resources the patch a fix edits patches too (its `target` selects several): the edit changes them as well. */
  const alsoPatched = (index: number, changes: FieldChange[]): number[] => {
    const others = new Set<number>();
    for (const change of changes) {
      if (change.kind === 'add-resource') continue;
      const edited = patchSetting(index, change.path);
      if (!edited || edited.inline) continue;
      const key = settingOf(edited, change.path);
      let documents = patchedBy.get(key);
      if (!documents) {
        documents = origins.flatMap((_, other) => {
          const also = patchSetting(other, change.path);
          return also && settingOf(also, change.path) === key ? [other] : [];
        });
        patchedBy.set(key, documents);
      }
      for (const other of documents) if (other !== index) others.add(other);
    }
    return [...others];
  };
  return {
    locate,
    origin(index, path) {
      const patched = patchSetting(index, path);
      if (!patched) return undefined;
      return setterSaid(patched, shownWithin(root, patched.resource.file!.uri));
    },
    translateFix(index, changes, refuse) {
      const edits = translateKustomizeFix({ root, index, changes, rendered: renderedObject(index), origin: origins[index], sources, patchSetting, originResource, refuse });
      const others = edits ? alsoPatched(index, changes) : [];
      return edits && others.length ? { ...edits, alsoChanges: namedFew(others, renderedObject, 'patch') } : edits;
    },
    useRendered(values) {
      objects = values;
    },
  };
}
