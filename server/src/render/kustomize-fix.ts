import { basename, dirname, join } from 'node:path';
import { yamlText } from '../fixes/yaml-text';
import { appendToSequence, removeField, setField } from '../fixes/yaml-edit';
import type { Resource } from '../manifest/parse';
import type { TextEdit } from '../fixes/edit';
import { valueAt } from '../manifest/workload';
import type { Path } from '../manifest/path';
import { kustomizationIn } from '../units/kustomization';
import type { KustomizeOrigin } from './kustomize';
import { isInlinePatch, patchFilesOf, setterSaid, type FieldSetter } from './kustomize-setters';
import { nameSeenBy, withoutAffixes } from './kustomize-names';
import { documentResource, type SourceFiles, sourcePath } from './source-yaml';
import type { FieldChange, SourceEdits } from './types';
import { shownWithin, within } from '../files/within';
import { literalPattern } from '../literal-pattern';
import { nameTaken } from '../files/file-kind';

export interface KustomizeFixInput {
  root: string;
  index: number;
  changes: FieldChange[];
  rendered: Record<string, any> | undefined;
  origin: KustomizeOrigin | undefined;
  sources: SourceFiles;
  patchSetting(index: number, path: Path): FieldSetter | undefined;
  originResource(index: number): Resource | undefined;
  /** Told why, when no edit is written. */
  refuse?(reason: string): void;
}

const SHORT_KIND: Record<string, string> = { PodDisruptionBudget: 'pdb', HorizontalPodAutoscaler: 'hpa' };

/**
 * The edits that make a Kustomize root render what a fix wants: a new resource is a new file beside the root's
 * kustomization, listed in its `resources:`; a field is edited in the patch (or `replicas:` entry) of this root that
 * sets it, else in the file it comes from when that file belongs to this root, else by a patch the root adds (a
 * base other roots deploy is left as it is). A field an inline patch or a shared component sets is not fixed.
 */
export function translateKustomizeFix(input: KustomizeFixInput): SourceEdits | undefined {
  const kustomization = kustomizationIn(input.root);
  const rootFile = kustomization ? input.sources.get(kustomization) : undefined;
  const rootResource = rootFile ? documentResource(rootFile) : undefined;
  const no = (reason: string) => {
    input.refuse?.(reason);
    return undefined;
  };
  if (!kustomization || !rootResource?.file) return no('its kustomization could not be read');
  const result: SourceEdits = { edits: [], creates: [] };
  const editsOf = (file: { uri: string; text: string }) => {
    let entry = result.edits.find((e) => e.path === file.uri);
    if (!entry) result.edits.push((entry = { path: file.uri, edits: [], against: file.text }));
    return entry.edits;
  };
  const fieldChanges = input.changes.filter((c) => c.kind !== 'add-resource') as Exclude<FieldChange, { kind: 'add-resource' }>[];
  const newPatch: Record<string, any> = {};
  for (const change of fieldChanges) {
    const patched = input.patchSetting(input.index, change.path);
    // Set by an inline patch (its text is a block of a kustomization), or by a patch or `replicas:` entry outside this
    // root (a component or base other roots use): no edit of ours would be this root's alone, or take effect.
    if (patched?.inline) return no(`${setterSaid(patched, shown(input.root, patched.resource.file!.uri))} sets it${isInlinePatch(patched) ? ': a block of text in the kustomization,' : ','} which this edit does not change`);
    if (patched && !within(input.root, patched.resource.file!.uri)) return no(`a patch outside this root sets it (${shown(input.root, patched.resource.file!.uri)}): a component or base other roots use too`);
    const own = patched ? undefined : ownSource(input);
    const target = patched?.resource ?? own;
    const at: Path | undefined = patched ? patched.path : own ? sourcePath(own, input.rendered, change.path) : undefined;
    if (target && at) {
      const edits = editField(target, at, change);
      if (!edits) return no(`${shown(input.root, target.file!.uri)} writes it in a form this edit does not change`);
      editsOf(target.file!).push(...edits);
      continue;
    }
    if (change.kind === 'remove') return no('no file of this root sets it, and a patch that removes a field is not written');
    if (!mergeInto(newPatch, input.rendered, change.path, change.value)) return no('it sits in a list whose items have no name: a patch cannot say which item it is');
  }
  const sharedBase = Object.keys(newPatch).length && !input.changes.some((c) => c.kind === 'add-resource') ? baseEdits(input, fieldChanges) : undefined;
  const created = new Set<string>();
  const fileName = (stem: string) => {
    // From a resource's name, which a manifest may write as anything (`../../web`): a name in the root, as Helm's are.
    const safe = stem.replace(/[^\w.-]/g, '-');
    for (let n = 1; ; n++) {
      const name = `${safe}${n === 1 ? '' : `-${n}`}.yaml`;
      const path = join(input.root, name);
      if (!nameTaken(path) && !created.has(path)) {
        created.add(path);
        return { name, path };
      }
    }
  };
  const resourceNames: string[] = [];
  if (Object.keys(newPatch).length) {
    const origin = input.origin!;
    // Named as the root's patches find it: before the root's own namePrefix and nameSuffix.
    const target = nameSeenBy(origin, input.sources, kustomization);
    const stem = `${target ?? 'resource'}-${SHORT_KIND[origin.kind] ?? origin.kind.toLowerCase()}-patch`;
    // Into the patch of the resource an earlier fix wrote, when there is one: one patch file, not one a fix (a patch
    // of the person's own, `replicas.yaml`, is theirs to keep to what it says).
    const own = ownPatchOf(kustomization, input.sources, origin.kind, target, stem);
    const merged = own && mergedInto(own, newPatch);
    if (merged) editsOf(own.file!).push(...merged);
    else {
      const { name, path } = fileName(stem);
      const { metadata, ...rest } = newPatch;
      // A patch finds its resource by an id it had: a namespace its file writes is part of that id (a namespace a
      // kustomization sets later is not, and is left out).
      const namespace = input.originResource(input.index)?.object?.metadata?.namespace;
      const body = { apiVersion: input.rendered?.apiVersion, kind: origin.kind, metadata: { ...metadata, name: target, ...(typeof namespace === 'string' && namespace ? { namespace } : {}) }, ...rest };
      result.creates.push({ path, text: yamlText(body) });
      const edits = appendToSequence(rootResource, ['patches'], { path: name });
      if (!edits) return no('the kustomization\'s `patches:` is written in a form this edit does not add to');
      editsOf(rootResource.file!).push(...edits);
    }
  }
  for (const change of input.changes) {
    if (change.kind !== 'add-resource') continue;
    const object = structuredClone(change.object) as Record<string, any>;
    // The root's namespace transformer sets it; a namespace written in the file would only repeat it.
    if (typeof rootResource.object?.namespace === 'string' && object?.metadata) delete object.metadata.namespace;
    const suffix = SHORT_KIND[object?.kind] ?? String(object?.kind ?? 'resource').toLowerCase();
    // Its namePrefix and nameSuffix are added to the new resource's name too: taken off the workload's name the
    // rule wrote in it (`prod-web-v2-pdb` is `web-pdb` here, rendered `prod-web-pdb-v2`, not `prod-web-v2-pdb-v2`).
    if (typeof object?.metadata?.name === 'string') {
      const name: string = object.metadata.name;
      const tail = `-${suffix}`;
      object.metadata.name = name.endsWith(tail) && name.length > tail.length ? `${withoutAffixes(name.slice(0, -tail.length), rootResource.object)}${tail}` : withoutAffixes(name, rootResource.object);
    }
    const stem = String(object?.metadata?.name ?? 'resource');
    const { name, path } = fileName(stem.endsWith(`-${suffix}`) ? stem : `${stem}-${suffix}`);
    result.creates.push({ path, text: yamlText(object) });
    resourceNames.push(name);
  }
  if (resourceNames.length) {
    const edits = appendToSequence(rootResource, ['resources'], ...resourceNames);
    if (!edits) return no('the kustomization\'s `resources:` is written in a form this edit does not add to');
    editsOf(rootResource.file!).push(...edits);
  }
  const touched = [...result.edits.map((e) => e.path), ...result.creates.map((c) => c.path)].map((p) => shown(input.root, p));
  result.title = `edit ${touched.join(', ')}`;
  if (sharedBase) result.sharedBase = sharedBase;
  return result;
}

/** A file as a message names it: relative to the folder above the root (`overlays/prod/patch.yaml`). */
function shown(root: string, path: string): string {
  return shownWithin(dirname(root), path);
}

function editField(resource: Resource, at: Path, change: Exclude<FieldChange, { kind: 'add-resource' }>) {
  return change.kind === 'set' ? setField(resource, at, change.value) : removeField(resource, at);
}

/** The changes written into the base file the resource comes from (outside this root), when each field can be. */
function baseEdits(input: KustomizeFixInput, changes: Exclude<FieldChange, { kind: 'add-resource' }>[]): SourceEdits | undefined {
  const base = input.originResource(input.index);
  if (!base?.file || within(input.root, base.file.uri)) return undefined;
  const edits: SourceEdits['edits'][number]['edits'] = [];
  for (const change of changes) {
    if (input.patchSetting(input.index, change.path)) return undefined;
    const at = sourcePath(base, input.rendered, change.path);
    const made = at && editField(base, at, change);
    if (!made) return undefined;
    edits.push(...made);
  }
  return { edits: [{ path: base.file.uri, edits, against: base.file.text }], creates: [], title: `edit ${basename(dirname(base.file.uri))}/${basename(base.file.uri)}` };
}

/**
 * The patch file a fix wrote for this resource (named `stem`, `stem-2`…): listed with no `target`, in the root's
 * folder, one document naming the resource.
 */
function ownPatchOf(kustomization: string, sources: SourceFiles, kind: string, name: string | null, stem: string): Resource | undefined {
  const written = new RegExp(`^${literalPattern(stem)}(-\\d+)?\\.yaml$`);
  for (const { path, target } of patchFilesOf(kustomization, sources)) {
    const file = target === undefined && dirname(path) === dirname(kustomization) && written.test(basename(path)) ? sources.get(path) : undefined;
    const resource = file?.documents.length === 1 ? file.resources[0] : undefined;
    if (resource?.kind === kind && resource.name === name) return resource;
  }
  return undefined;
}

/**
 * The edits that write a new patch's fields into an existing patch of the same resource: the one branch the
 * patch does not have yet, set whole (`spec.template` under its `spec`); undefined when the two share a field or a
 * list, or differ in more than one place (two insertions at one place would be written in no sure order).
 */
function mergedInto(existing: Resource, patch: Record<string, any>): TextEdit[] | undefined {
  const missing: Path[] = [];
  const walk = (value: any, at: Path): boolean => {
    const there = valueAt(existing.object, at);
    if (there === undefined) return (missing.push(at), true);
    if (Array.isArray(there) || Array.isArray(value) || !value || typeof value !== 'object' || !there || typeof there !== 'object') return false;
    return Object.entries(value).every(([key, child]) => walk(child, [...at, key]));
  };
  // A new patch of metadata (annotations) gets a file of its own: the existing patch's metadata names its resource.
  if (patch.metadata !== undefined || !walk(patch, []) || missing.length !== 1) return undefined;
  return setField(existing, missing[0], valueAt(patch, missing[0]));
}

/** The file a resource comes from, when it belongs to this root alone (not a base other roots may deploy). */
function ownSource(input: KustomizeFixInput): Resource | undefined {
  const resource = input.originResource(input.index);
  return resource?.file && within(input.root, resource.file.uri) ? resource : undefined;
}

/**
 * Writes the field into a strategic merge patch being built, taking list items by their `name` (how the patch
 * finds the container to change); false when a list item on the way has no name.
 */
function mergeInto(patch: Record<string, any>, rendered: any, path: Path, value: unknown): boolean {
  let target: any = patch;
  let source: any = rendered;
  for (let i = 0; i < path.length; i++) {
    const step = path[i];
    const last = i === path.length - 1;
    const nextStep = path[i + 1];
    if (typeof step === 'number') {
      const item = Array.isArray(source) ? source[step] : undefined;
      if (!item || typeof item !== 'object' || typeof item.name !== 'string' || !Array.isArray(target)) return false;
      let entry = target.find((e: any) => e.name === item.name);
      if (!entry) target.push((entry = { name: item.name }));
      if (last) return false;
      target = entry;
      source = item;
      continue;
    }
    if (last) {
      target[step] = value;
      return true;
    }
    target[step] ??= typeof nextStep === 'number' ? [] : {};
    target = target[step];
    source = source?.[step];
  }
  return false;
}
