import { declaredFacts, IGNORE_ANNOTATION, parseRuleList } from '../manifest/declared';
import type { ManifestFile, Resource } from '../manifest/parse';
import { insideScalar } from '../manifest/inside-scalar';

export { IGNORE_ANNOTATION, parseRuleList };
export const IGNORE_COMMENT = 'kube-resilience-ignore';

const COMMENT = /^(\s*#\s*kube-resilience-ignore:?\s+)([^\n]*?)\s*(?:--.*)?$/;

/** Rules a resource's `kube-resilience/ignore` annotation (on it or its pod template) turns off. */
export function ignoredByAnnotation(resource: Resource | undefined): string[] {
  return resource ? declaredFacts(resource).ignore : [];
}

/** The rule ids of a `# kube-resilience-ignore a, b -- reason` comment line, each with its column. */
export function ignoreCommentIds(lineText: string): { id: string; column: number }[] {
  const match = COMMENT.exec(lineText);
  if (!match) return [];
  const ids: { id: string; column: number }[] = [];
  const word = /[^\s,]+/g;
  for (let m = word.exec(match[2]); m; m = word.exec(match[2])) ids.push({ id: m[0], column: match[1].length + m.index });
  return ids;
}

/**
 * Rules `# kube-resilience-ignore a, b -- reason` comments right above `line` turn off: the one on the line above, and
 * those stacked over it (an editor's second "Ignore … here" on a line adds its comment below the first).
 */
export function ignoredByComment(file: ManifestFile, line: number): string[] {
  const ids: string[] = [];
  for (let above = line - 1; above >= 0; above--) {
    const here = ignoreCommentIds(file.lines.lineText(above)).map((i) => i.id);
    // A `#` line inside a value over lines (a block scalar's, a quoted string's) is text of the value, not a comment.
    if (!here.length || insideScalar(file, file.lines.offset({ line: above, character: 0 }))) break;
    ids.push(...here);
  }
  return ids;
}
