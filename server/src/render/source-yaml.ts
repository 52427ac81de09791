import { isMap } from 'yaml';
import { readRegularFileBounded } from '../files/read-bounded';
import { decodeManifest, MAX_MANIFEST_BYTES } from '../inventory/manifest-files';
import { parseManifest, type ManifestFile, type Resource } from '../manifest/parse';
import { deepestAlong, nodeAt, rangeOfPath, type Path } from '../manifest/path';
import type { SourceLocation } from './types';

/** Source files read once per render: a mapper asks for the same bases and patches for every finding. */
export class SourceFiles {
  private readonly files = new Map<string, ManifestFile | undefined>();

  constructor(private readonly readText: (path: string) => string | undefined = readSourceText) {}

  get(path: string): ManifestFile | undefined {
    if (!this.files.has(path)) {
      const text = this.readText(path);
      this.files.set(path, text === undefined ? undefined : parseManifest(path, text));
    }
    return this.files.get(path);
  }
}

export function readSourceText(path: string): string | undefined {
  try {
    return decodeManifest(readRegularFileBounded(path, MAX_MANIFEST_BYTES)).text;
  } catch {
    return undefined;
  }
}

/** The document of a file as a resource, even one without apiVersion and kind (a kustomization may omit them). */
export function documentResource(file: ManifestFile, index = 0): Resource | undefined {
  return file.documents[index]?.resources[0] ?? rootHandle(file, index);
}

/** A document's root mapping as a resource-shaped handle, whatever it holds, so the comment-keeping YAML edits apply to it. */
export function rootHandle(file: ManifestFile, index = 0): Resource | undefined {
  const document = file.documents[index];
  const root = document?.parsed.root;
  if (!isMap(root)) return undefined;
  const value = document.parsed.value as Record<string, unknown>;
  return { apiVersion: String(value.apiVersion ?? ''), kind: String(value.kind ?? ''), name: null, namespace: '', object: value, node: root, document, file };
}

/** The resource of kind and name in a file (a base's Deployment among others). */
export function findResource(file: ManifestFile, kind: string, name: string | null): Resource | undefined {
  return file.resources.find((r) => r.kind === kind && r.name === name) ?? (file.resources.length === 1 ? file.resources[0] : undefined);
}

/**
 * The path in a source document that writes the rendered field at `path`: a list item is matched by its `name`
 * (containers, ports, env), as a strategic merge patch matches it, else by position.
 */
export function sourcePath(source: Resource, rendered: unknown, path: Path): Path | undefined {
  const out: (string | number)[] = [];
  let renderedNode: any = rendered;
  for (const step of path) {
    if (typeof step === 'number') {
      const item = Array.isArray(renderedNode) ? renderedNode[step] : undefined;
      const name = item && typeof item === 'object' ? item.name : undefined;
      const sourceList = nodeAt(source.node, out)?.toJSON?.();
      if (Array.isArray(sourceList) && name !== undefined) {
        const at = sourceList.findIndex((entry: any) => entry && entry.name === name);
        if (at < 0) return undefined;
        out.push(at);
      } else out.push(step);
      renderedNode = item;
    } else {
      out.push(step);
      renderedNode = renderedNode && typeof renderedNode === 'object' ? renderedNode[step] : undefined;
    }
  }
  return out;
}

/** Whether the source document writes the whole field (a patch that sets it), not only a parent of it. */
export function writesField(source: Resource, path: Path): boolean {
  if (!path.length) return false;
  const found = deepestAlong(source.node, path);
  return !!found && found.depth >= path.length;
}

/** Where a finding about `path` sits in a source document: the field's key, else the deepest parent written, else `kind:`. */
export function locationIn(source: Resource, path: Path): SourceLocation {
  const range = rangeOfPath(source, path);
  return { path: source.file!.uri, line: range.start.line, character: range.start.character, endCharacter: range.end.line === range.start.line ? range.end.character : undefined };
}
