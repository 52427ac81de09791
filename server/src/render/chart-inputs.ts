import type { Dirent } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { basename, dirname, join, relative, sep } from 'node:path';
import { readRegularFileBounded } from '../files/read-bounded';
import { isFolder, realPathOrUndefined } from '../files/file-kind';
import { within } from '../files/within';
import { lineNumberAt } from '../manifest/text';
import { walkChart } from './chart-walk';
import { HelmIgnore } from './helmignore';
import { readSourceText } from './source-yaml';
import type { RenderProblem } from './types';


/**
 * Why a chart must not be rendered, if it must not: helm would read outside the chart (it follows links: a
 * `.Files.Get` of one printed a file from elsewhere into the report), fetch from the network or read outside it
 * (a values schema's `$ref` to a URL or a file), or wait on a FIFO or device (the render held for its timeout).
 */
export function chartInputsOutside(root: string, chartName: string): RenderProblem | undefined {
  const found = chartReadsOutside(root);
  return found && { location: { path: found.path, line: found.line }, severity: 'warning', message: `Chart ${chartName} is not analysed: ${found.why}; it is not rendered.` };
}

/** What of a chart helm would read outside it or wait on, and where to say so; undefined when nothing. */
export function chartReadsOutside(root: string): { path: string; line: number; why: string } | undefined {
  const realRoot = realPathOrUndefined(root);
  if (realRoot === undefined) return undefined;
  const problem = (path: string, why: string, line = 0) => ({ path, line, why });
  const chartYaml = join(root, 'Chart.yaml');
  // Helm reads the top chart's `.helmignore` only, against paths from the top chart's folder (subcharts' too).
  const rules = HelmIgnore.of(root);
  const ignores = (path: string, folder: boolean) => rules.ignores(relative(root, path).split(sep).join('/'), folder);
  let found: ReturnType<typeof chartReadsOutside>;
  const visit = (path: string, entry: Dirent): boolean => {
    const named = relative(root, path);
    let file = path;
    if (entry.isSymbolicLink()) {
      // One that leads nowhere is helm's to report.
      const target = realPathOrUndefined(path);
      if (target === undefined || ignores(path, isFolder(target))) return false;
      if (!within(realRoot, target)) found = problem(chartYaml, `${named} is a link to ${target}, outside the chart, which helm would read`);
      // Helm walks a linked folder again under the link's name, where .helmignore's rules match otherwise.
      else if (isFolder(target)) found = problem(chartYaml, `${named} is a link to the folder ${relative(realRoot, target) || '.'}, which helm reads again through the link`);
      file = target;
    } else if (ignores(path, false)) return false;
    else if (!entry.isFile()) found = problem(chartYaml, `${named} is not a regular file (a FIFO or a device would hold the render)`);
    if (found) return true;
    // Named as helm loads it: by the link's name, wherever the link leads.
    if (entry.name === SCHEMA) found = schemaProblem(file, path);
    else if (entry.name.endsWith('.tgz') && basename(dirname(path)) === 'charts') {
      const packed = archivedSchemaReference(readArchive(file));
      if (packed) found = problem(chartYaml, packed === TOO_LARGE ? `${named} is too large to be looked through` : `the values schema packed in ${named} refers to ${packed}, which helm would fetch or read outside the chart`);
    }
    return !!found;
  };
  // A chart at the root of its repository: git's own folder there is walked apart (helm ignores it when `helm create`
  // wrote the chart, and loads it otherwise: a link in it to /etc/passwd was read).
  const git = join(root, '.git');
  const whole = walkChart(root, visit, (folder) => !ignores(folder, true) && folder !== git);
  if (!whole) return problem(chartYaml, 'it holds more than 10,000 files and folders that .helmignore does not leave out, more than any chart');
  if (found || !isFolder(git) || ignores(git, true)) return found;
  const wholeGit = walkChart(git, visit, (folder) => !ignores(folder, true));
  return wholeGit ? found : problem(chartYaml, 'its .git folder, which helm loads with the chart unless .helmignore leaves it out, holds more than 10,000 files and folders: add `.git/` to .helmignore');

  function schemaProblem(file: string, shownAt: string): ReturnType<typeof chartReadsOutside> {
    const text = readSourceText(file);
    if (text === undefined) return problem(shownAt, 'its values schema cannot be looked through (not a regular file, or larger than a manifest is read)');
    const outside = externalReference(text);
    return outside && problem(shownAt, `its values schema refers to ${outside.ref}, which helm would fetch or read outside the chart`, outside.line);
  }
}

const SCHEMA = 'values.schema.json';

const TOO_LARGE = Symbol('too large');

/** A packed chart's tar, read and unpacked; TOO_LARGE past the bounds (then nothing tells what it holds). */
function readArchive(path: string): Buffer | typeof TOO_LARGE | undefined {
  let packed: Buffer;
  try {
    packed = readRegularFileBounded(path, MAX_ARCHIVE_BYTES);
  } catch (error) {
    return (error as { code?: string }).code === 'ETOOLARGE' ? TOO_LARGE : undefined;
  }
  return unpacked(packed);
}

/** A gzip's content, bounded; TOO_LARGE past the bound, undefined when it is no gzip (helm says so). */
function unpacked(packed: Buffer): Buffer | typeof TOO_LARGE | undefined {
  try {
    return gunzipSync(packed, { maxOutputLength: MAX_UNPACKED_BYTES });
  } catch (error) {
    return (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ? TOO_LARGE : undefined;
  }
}

/**
 * The first reference pointing outside it of a values schema packed in a subchart (`helm dependency build` leaves
 * them packed), its own subcharts' packed in it too. Entries are named as helm names them: a GNU long name or a PAX
 * path stands for the next header's, and `\` is a separator.
 */
function archivedSchemaReference(tar: Buffer | typeof TOO_LARGE | undefined, depth = 0): string | typeof TOO_LARGE | undefined {
  if (tar === undefined || tar === TOO_LARGE) return tar;
  let longName: string | undefined;
  for (let at = 0; at + 512 <= tar.length; ) {
    const header = tar.subarray(at, at + 512);
    const field = (start: number, length: number) => header.subarray(start, start + length).toString('utf8').replace(/\0.*$/s, '');
    const name = field(0, 100);
    if (!name) break;
    const size = parseInt(field(124, 12).trim() || '0', 8) || 0;
    const type = String.fromCharCode(header[156]);
    const body = tar.subarray(at + 512, at + 512 + size);
    at += 512 + Math.ceil(size / 512) * 512;
    if (type === 'L') longName = body.toString('utf8').replace(/\0.*$/s, '');
    else if (type === 'x') longName = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(body.toString('utf8'))?.[1];
    if (type === 'L' || type === 'x' || type === 'g') continue;
    const path = (longName ?? [field(345, 155), name].filter(Boolean).join('/')).replaceAll('\\', '/');
    longName = undefined;
    if (path.endsWith(`/${SCHEMA}`)) {
      const outside = externalReference(body.toString('utf8'));
      if (outside) return outside.ref;
    } else if (path.endsWith('.tgz') && /\/charts\/[^/]+$/.test(path) && depth < MAX_NESTED_ARCHIVES) {
      const found = archivedSchemaReference(unpacked(body), depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}

const MAX_NESTED_ARCHIVES = 4;
const MAX_ARCHIVE_BYTES = 16 * 1024 * 1024;
const MAX_UNPACKED_BYTES = 64 * 1024 * 1024;

/**
 * The first reference of a JSON schema's text that helm's validator would load from elsewhere, with its line: a
 * `$ref`, `$dynamicRef` or `$recursiveRef` not inside the schema (`#…`), or a `$schema` that is no published draft.
 * A schema that does not parse is helm's to refuse.
 */
function externalReference(text: string): { ref: string; line: number } | undefined {
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch {
    return undefined;
  }
  const ref = firstExternal(schema);
  if (ref === undefined) return undefined;
  const at = text.indexOf(JSON.stringify(ref.value).slice(1, -1));
  return { ref: `${ref.value} (${ref.key})`, line: at < 0 ? 0 : lineNumberAt(text, at) };
}

const REFERENCES = new Set(['$ref', '$dynamicRef', '$recursiveRef']);
/** The meta-schemas helm's validator holds itself: any other address under json-schema.org it fetched. */
const PUBLISHED_DRAFT = /^https?:\/\/json-schema\.org\/(draft-0[467]\/schema|draft\/(2019-09|2020-12)\/schema)#?$/;

/** The first reference of the schema that leads out of it, however deep (past 256 levels one was not looked for, and read). */
function firstExternal(schema: unknown): { key: string; value: string } | undefined {
  const nodes = [schema];
  for (let node = nodes.pop(); node !== undefined; node = nodes.pop()) {
    if (!node || typeof node !== 'object') continue;
    const entries = Object.entries(node);
    for (const [key, value] of entries) {
      if (typeof value === 'string' && ((REFERENCES.has(key) && !value.startsWith('#')) || (key === '$schema' && !PUBLISHED_DRAFT.test(value)))) return { key, value };
    }
    // In the order written: the first found is the first in the file.
    for (let i = entries.length - 1; i >= 0; i--) if (entries[i][1] && typeof entries[i][1] === 'object') nodes.push(entries[i][1]);
  }
  return undefined;
}
