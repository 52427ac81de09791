import type { ManifestFile, Resource } from '../manifest/parse';
import { declaredAnnotations } from '../manifest/workload';

export const IGNORE_ANNOTATION = 'kube-resilience/ignore';
export const IGNORE_COMMENT = 'kube-resilience-ignore';

const COMMENT = /^\s*#\s*kube-resilience-ignore\s+([^\n]*?)\s*(?:--.*)?$/;

/** Rule ids listed in a comma-separated ignore value. */
export function parseRuleList(value: string): string[] {
  return value
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
}

/** Rules a resource's `kube-resilience/ignore` annotation (on it or its pod template) turns off. */
export function ignoredByAnnotation(resource: Resource | undefined): string[] {
  if (!resource) return [];
  const value = declaredAnnotations(resource)[IGNORE_ANNOTATION] ?? resource.object?.metadata?.annotations?.[IGNORE_ANNOTATION];
  return typeof value === 'string' ? parseRuleList(value) : [];
}

/** Rules a `# kube-resilience-ignore a, b -- reason` comment on the line above `line` turns off. */
export function ignoredByComment(file: ManifestFile, line: number): string[] {
  if (line <= 0) return [];
  const match = COMMENT.exec(file.lines.lineText(line - 1));
  return match ? parseRuleList(match[1].replace(/\s+/g, ',')) : [];
}
