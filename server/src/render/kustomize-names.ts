import type { KustomizeOrigin } from './kustomize';
import { documentResource, type SourceFiles } from './source-yaml';

/**
 * A resource's name as `kustomization`'s patches find it: the rendered name without the `namePrefix` and
 * `nameSuffix` of that kustomization and those around it (kustomize renames after patching, level by level);
 * without a kustomization, its name in the file it comes from.
 */
export function nameSeenBy(origin: KustomizeOrigin, sources: SourceFiles, kustomization?: string): string | null {
  const { transformations } = origin;
  const own = kustomization === undefined ? 0 : transformations.findIndex((t) => t.configuredIn === kustomization);
  let name = origin.name;
  // Undone last first, from the end back to that kustomization's first transformation (none of its own: none).
  for (const { kind, configuredIn } of transformations.slice(own < 0 ? transformations.length : own).reverse()) {
    if (name === null || (kind !== 'PrefixTransformer' && kind !== 'SuffixTransformer')) continue;
    const file = sources.get(configuredIn);
    const settings = file && documentResource(file)?.object;
    name = withoutAffixes(name, kind === 'PrefixTransformer' ? { namePrefix: settings?.namePrefix } : { nameSuffix: settings?.nameSuffix });
  }
  return name;
}

/** A name without a kustomization's `namePrefix` and `nameSuffix`, where it has them. */
export function withoutAffixes(name: string, kustomization: { namePrefix?: unknown; nameSuffix?: unknown } | undefined): string {
  const prefix = typeof kustomization?.namePrefix === 'string' ? kustomization.namePrefix : '';
  const suffix = typeof kustomization?.nameSuffix === 'string' ? kustomization.nameSuffix : '';
  const bare = prefix && name.startsWith(prefix) && name.length > prefix.length ? name.slice(prefix.length) : name;
  return suffix && bare.endsWith(suffix) && bare.length > suffix.length ? bare.slice(0, bare.length - suffix.length) : bare;
}
