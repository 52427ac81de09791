import { dirname, resolve } from 'node:path';
import { isSeq } from 'yaml';
import { parseChunk, parseManifest, type ManifestFile, type Resource } from '../manifest/parse';
import { pointerSteps, type Path } from '../manifest/path';
import { documentResource, rootHandle, type SourceFiles, writesField } from './source-yaml';
import { parseSelectorText, selectorMatches } from '../manifest/selector';

/**
 * Where a rendered field is set, when not in the file the resource comes from: a patch file (edited by a fix), an entry
 * of a kustomization's `replicas:` (its `count`, edited too), or a place pointed at and never edited (`inline`): an
 * inline patch, a JSON 6902 operation, a replacement.
 */
export interface FieldSetter {
  resource: Resource;
  path: Path;
  inline?: true;
  /** Set by a replacement, which runs after every patch. */
  replacement?: true;
}

/**
 * What sets a field, as a message names it: `a replacement in F`, `replicas in F`, an inline patch (a block of text of
 * the kustomization), a JSON 6902 operation of a patch file, or `patch F`.
 */
export function setterSaid(setter: FieldSetter, file: string): string {
  if (setter.replacement) return `a replacement in ${file}`;
  if (setter.path[0] === 'replicas') return `replicas in ${file}`;
  if (!setter.inline) return `patch ${file}`;
  return isInlinePatch(setter) ? `an inline patch in ${file}` : `a JSON 6902 operation in ${file}`;
}

/** Whether a setter is a patch written inline in its kustomization (its path starts at the kustomization's `patches:`). */
export function isInlinePatch(setter: FieldSetter): boolean {
  return !!setter.inline && !setter.replacement && typeof setter.path[0] === 'string';
}

/** A rendered resource as a kustomization's entries select it: by its name there, and its labels and annotations. */
export interface Selected {
  kind: string;
  name: string | null;
  namespace: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

/**
 * Whether a kustomization's `target` (or a replacement's `select`) selects the resource, as kustomize's Selector
 * does: kind, name and namespace as anchored regular expressions, and label and annotation selectors.
 */
export function targetSelects(target: unknown, it: Selected): boolean {
  if (!target || typeof target !== 'object') return false;
  const t = target as Record<string, unknown>;
  const matches = (pattern: unknown, value: string | null) => pattern === undefined || (typeof pattern === 'string' && value !== null && anchored(pattern)(value));
  return matches(t.kind, it.kind) && matches(t.name, it.name) && matches(t.namespace, it.namespace) && textSelectorMatches(t.labelSelector, it.labels) && textSelectorMatches(t.annotationSelector, it.annotations);
}

function anchored(pattern: string): (value: string) => boolean {
  try {
    const regex = new RegExp(`^(?:${pattern})$`);
    return (value) => regex.test(value);
  } catch {
    return (value) => value === pattern;
  }
}

/** A label or annotation selector written as text against labels: any selector when none is written; an unreadable one selects nothing. */
function textSelectorMatches(selector: unknown, labels: Record<string, string>): boolean {
  if (selector === undefined) return true;
  const parsed = typeof selector === 'string' ? parseSelectorText(selector) : undefined;
  return !!parsed && selectorMatches(parsed, labels);
}

/**
 * A patch of a kustomization that sets the field and is not a strategic merge patch file (those are found by their
 * resource): an inline patch (`patches: [{patch: |- …}]`, a strategic merge patch of the resource or JSON 6902
 * operations), or a JSON 6902 file (`patches` or `patchesJson6902` with a `path` and a `target`). The last applied wins.
 */
export function jsonOrInlinePatchSetting(kustomization: string, sources: SourceFiles, it: Selected, path: Path): FieldSetter | undefined {
  const file = sources.get(kustomization);
  const resource = file && documentResource(file);
  const value = resource?.object;
  if (!value || typeof value !== 'object') return undefined;
  // In the order kustomize applies them (PatchTransformer, then PatchJson6902Transformer), searched from the last.
  const entries: [string, unknown[]][] = [
    ['patches', Array.isArray(value.patches) ? value.patches : []],
    ['patchesJson6902', Array.isArray(value.patchesJson6902) ? value.patchesJson6902 : []],
  ];
  for (const [field, list] of entries.reverse()) {
    for (let i = list.length - 1; i >= 0; i--) {
      const entry = list[i] as { patch?: unknown; path?: unknown; target?: unknown } | undefined;
      const targeted = entry?.target !== undefined && targetSelects(entry.target, it);
      if (typeof entry?.patch === 'string') {
        const patch = parseChunk(entry.patch).value;
        const sets = Array.isArray(patch)
          ? targeted && operationAt(patch, path) >= 0
          : (() => {
              const own = parseManifest(kustomization, entry.patch as string).resources[0];
              const forIt = own ? (own.kind === it.kind && own.name === it.name) || targeted : false;
              return forIt && writesField(own!, path);
            })();
        if (sets) return { resource, path: [field, i, 'patch'], inline: true };
      } else if (typeof entry?.path === 'string' && targeted) {
        const operations = sources.get(resolve(dirname(kustomization), entry.path));
        const handle = operations && sequenceHandle(operations);
        const at = handle ? operationAt(handle.object, path) : -1;
        if (at >= 0) return { resource: handle!, path: [at, 'value'], inline: true };
      }
    }
  }
  return undefined;
}

/** The last JSON 6902 operation of `operations` that writes the field at `path` (or one holding it); -1 when none does. */
function operationAt(operations: unknown[], path: Path): number {
  for (let i = operations.length - 1; i >= 0; i--) {
    const op = operations[i] as { path?: unknown } | undefined;
    if (typeof op?.path === 'string' && jsonPointerCovers(op.path, path)) return i;
  }
  return -1;
}

/** Whether a JSON 6902 operation at `pointer` writes the field at `path` (the field itself, or one holding it). */
function jsonPointerCovers(pointer: string, path: Path): boolean {
  const steps = pointerSteps(pointer);
  return steps.length <= path.length && steps.every((step, i) => step === String(path[i]) || (step === '-' && i === steps.length - 1));
}

/**
 * A replacement of a kustomization that writes the field (`replacements:`, inline or in a file): it runs after every
 * patch, so a patch of the field would not take. Pointed at, never edited.
 */
export function replacementSetting(kustomization: string, sources: SourceFiles, it: Selected, path: Path): FieldSetter | undefined {
  const file = sources.get(kustomization);
  const resource = file && documentResource(file);
  const entries: unknown[] = Array.isArray(resource?.object?.replacements) ? resource!.object.replacements : [];
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i] as { path?: unknown } | undefined;
    if (typeof entry?.path === 'string') {
      const listed = sources.get(resolve(dirname(kustomization), entry.path));
      const handle = listed && (sequenceHandle(listed) ?? rootHandle(listed));
      const replacements: unknown[] = handle ? (Array.isArray(handle.object) ? handle.object : [handle.object]) : [];
      for (let at = replacements.length - 1; at >= 0; at--) {
        if (replaces(replacements[at], it, path)) return { resource: handle!, path: Array.isArray(handle!.object) ? [at] : [], inline: true, replacement: true };
      }
    } else if (replaces(entry, it, path)) return { resource: resource!, path: ['replacements', i], inline: true, replacement: true };
  }
  return undefined;
}

/** Whether a replacement writes the field: a target that selects the resource, rejects it not, and names a field path over it. */
function replaces(replacement: unknown, it: Selected, path: Path): boolean {
  const targets = (replacement as { targets?: unknown } | undefined)?.targets;
  if (!Array.isArray(targets)) return false;
  return targets.some((target: { select?: unknown; reject?: unknown; fieldPaths?: unknown }) => {
    if (!targetSelects(target?.select, it)) return false;
    if (Array.isArray(target.reject) && target.reject.some((r) => targetSelects(r, it))) return false;
    return Array.isArray(target.fieldPaths) && target.fieldPaths.some((p) => typeof p === 'string' && fieldPathCovers(p, path));
  });
}

/** Whether a replacement's field path (`spec.template.spec.containers.[name=app].image`) names the field at `path` or one holding it. */
function fieldPathCovers(fieldPath: string, path: Path): boolean {
  const steps = fieldPath.split(/\.(?![^[]*\])/);
  return steps.length <= path.length && steps.every((step, i) => step === String(path[i]) || (/^\[.*\]$/.test(step) && typeof path[i] === 'number'));
}

/** A file whose document is a sequence (JSON 6902 operations, a list of replacements) as a handle to point into. */
function sequenceHandle(file: ManifestFile): Resource | undefined {
  const document = file.documents[0];
  const root = document?.parsed.root;
  if (!isSeq(root)) return undefined;
  // The handle points into the sequence: rangeOfPath walks it by index as it walks a mapping by key.
  return { apiVersion: '', kind: '', name: null, namespace: '', object: document.parsed.value, node: root as never, document, file };
}

/** The patch files a kustomization applies, in order (inline patches have no file to point at). */
export function patchFilesOf(kustomization: string, sources: SourceFiles): { path: string; target?: unknown }[] {
  const file = sources.get(kustomization);
  const value = file && documentResource(file)?.object;
  if (!value || typeof value !== 'object') return [];
  const entries = [...(Array.isArray(value.patchesStrategicMerge) ? value.patchesStrategicMerge : []), ...(Array.isArray(value.patches) ? value.patches : [])];
  return entries
    .map((entry: any) => (typeof entry === 'string' ? { path: entry } : { path: entry?.path, target: entry?.target }))
    .filter((entry: { path: unknown }): entry is { path: string; target?: unknown } => typeof entry.path === 'string' && !entry.path.includes('\n'))
    .map((entry: { path: string; target?: unknown }) => ({ ...entry, path: resolve(dirname(kustomization), entry.path) }));
}
