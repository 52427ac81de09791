import { isScalar } from 'yaml';
import { yamlText } from '../fixes/yaml-text';
import { nest, setField, removeField } from '../fixes/yaml-edit';
import type { TextEdit } from '../fixes/edit';
import { parseManifest, type Resource } from '../manifest/parse';
import { nodeAt, nodeSpan, pairOf, type Path } from '../manifest/path';
import { rootHandle } from './source-yaml';
import { valueAt } from '../manifest/workload';
import { pathToFileURL } from 'node:url';

/** A values file as it was when the chart was rendered, and the key it holds the chart's values under. */
export interface ValuesSource {
  path: string;
  text: string;
  /** Where the chart's `.Values` sit in this file: [] for the chart's own files, ['sub'] in a parent's for subchart `sub`. */
  prefix: string[];
}

/** The values file as a resource-shaped handle, so the comment-keeping YAML edits apply to it. */
function valuesHandle(source: ValuesSource): Resource | undefined {
  return rootHandle(parseManifest(pathToFileURL(source.path).href, source.text));
}

/**
 * The 0-based line of the key at `path` in the file, else of the deepest key on its way the file writes (`api:` of
 * an `api.replicas` it takes from a merge key `<<: *defaults`); undefined when it writes none of them.
 */
export function valuesKeyLine(source: ValuesSource, key: readonly string[]): number | undefined {
  const handle = valuesHandle(source);
  if (!handle?.node) return undefined;
  const full = [...source.prefix, ...key];
  for (let depth = full.length; depth > 0; depth--) {
    const pair = pairOf(nodeAt(handle.node, full.slice(0, depth - 1)), full[depth - 1]);
    if (pair?.key) return handle.file!.lines.position(nodeSpan(handle, pair.key)[0]).line;
  }
  return undefined;
}

/** The value the file gives the key, as parsed (undefined when it gives none). */
export function valuesKeyValue(source: ValuesSource, key: readonly string[]): unknown {
  return valueAt(valuesHandle(source)?.object, [...source.prefix, ...key]);
}

/** The node the file writes for the key, a `null` included (`key:`), if it writes one. */
function keyNode(source: ValuesSource, key: readonly string[]): ReturnType<typeof nodeAt> {
  const handle = valuesHandle(source);
  return handle?.node ? nodeAt(handle.node, [...source.prefix, ...key]) : undefined;
}

/** Whether the file gives the key a value (a key written with nothing after it sets nothing). */
export function setsKey(source: ValuesSource, key: readonly string[]): boolean {
  const node = keyNode(source, key);
  return node !== undefined && !(isScalar(node) && node.value === null);
}

/**
 * The file whose value of the key the render used: the last that sets it; for a key none sets, the last that sets the
 * map it would be in (a `pdb:` an environment's file fills, where the chart's values.yaml has `pdb: {}` to switch the
 * budget off: written there, a key switched it on for every install); else the chart's own values.yaml (the first
 * source of its chart).
 */
export function valuesSourceFor(sources: ValuesSource[], key: readonly string[]): ValuesSource | undefined {
  // A null the key is given takes away what files below give it (Helm's way to unset one): that file decides.
  for (let i = sources.length - 1; i >= 0; i--) if (keyNode(sources[i], key) !== undefined) return sources[i];
  for (let depth = key.length - 1; depth > 0; depth--) {
    for (let i = sources.length - 1; i >= 0; i--) if (setsKey(sources[i], key.slice(0, depth))) return sources[i];
  }
  return sources.find((s) => s.prefix.length === 0) ?? sources[0];
}

/** Edits that set (or remove, for undefined) the key in the values file, keeping its comments; undefined when the file cannot take them. */
export function editValuesKey(source: ValuesSource, key: readonly string[], value: unknown): TextEdit[] | undefined {
  const full: Path = [...source.prefix, ...key];
  const handle = valuesHandle(source);
  if (!handle) {
    // An empty (or comments-only) values file: the key is written at its end.
    if (value === undefined || source.text.trim().split('\n').some((line) => line.trim() && !line.trim().startsWith('#'))) return undefined;
    const nested = nest([...source.prefix, ...key], value);
    const lead = source.text === '' || source.text.endsWith('\n') ? '' : '\n';
    return [{ start: source.text.length, end: source.text.length, text: lead + yamlText(nested, { lineWidth: 0 }) }];
  }
  return value === undefined ? removeField(handle, full) : setField(handle, full, value);
}
