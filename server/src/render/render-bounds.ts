import { MAX_MANIFESTS_PER_WALK } from '../inventory/manifest-files';

/**
 * The most a render may print to be analysed: about 4× the 106,000-line file of 2,000 Deployments. A `range` of
 * 600,000 ConfigMaps printed 57 MB, under the bound that was, and took 72 s and 2.2 GB to analyse.
 */
export const MAX_RENDER_BYTES = 16 * 1024 * 1024;

/** The most documents a render may hold to be analysed: as many manifests as a folder's walk reads. */
export const MAX_RENDERED_DOCUMENTS = MAX_MANIFESTS_PER_WALK;

/**
 * Whether a rendered stream holds more than `limit` documents, counted by their `---` lines (nothing parsed). The
 * items of a `List` count as documents too, by the lines that start an item with `apiVersion:` or `kind:` (a few
 * nested ones counted too: a bound, not a tally): one List of 45,000 Deployments passed as one document, and its
 * analysis ran for hours.
 */
export function documentsPast(text: string, limit = MAX_RENDERED_DOCUMENTS): boolean {
  let count = 1;
  for (let at = text.indexOf('\n---'); at !== -1 && count <= limit; at = text.indexOf('\n---', at + 4)) count++;
  if (count > limit || !LIST_KIND.test(text)) return count > limit;
  for (ITEM_START.lastIndex = 0; count <= limit && ITEM_START.test(text); ) count++;
  return count > limit;
}

const LIST_KIND = /^kind:[ \t]*["']?\w*List["']?[ \t]*(#.*)?\r?$/m;
const ITEM_START = /^[ \t]*-[ \t]+["']?(apiVersion|kind)["']?[ \t]*:/gm;

/** What a unit that renders past the bound is told. */
export function tooManyDocuments(what: string): string {
  return `${what} renders more than ${MAX_RENDERED_DOCUMENTS.toLocaleString('en')} documents, more than is analysed: it is not analysed`;
}
