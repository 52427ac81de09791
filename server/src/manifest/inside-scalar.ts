import { visit, type Node } from 'yaml';
import { documentAt, type ManifestFile } from './parse';

/**
 * Whether `offset` lies inside a scalar that goes over lines (a quoted string, a block scalar, a plain one): a
 * line that starts there is part of the value, so a comment written there is text of the value, and a `#` line
 * read there is no comment.
 */
export function insideScalar(file: ManifestFile, offset: number): boolean {
  const document = documentAt(file, offset);
  const root = document?.parsed.root;
  if (!document || !root) return false;
  const at = offset - document.offset;
  let inside = false;
  visit(root as Node, {
    Scalar(_, node) {
      const [start, end] = node.range ?? [0, 0];
      if (start < at && at < end) {
        inside = true;
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return inside;
}
