import { existsSync, realpathSync, statSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { basename, dirname, join, relative, sep } from 'node:path';
import { readRegularFileBounded } from '../files/read-bounded';
import { within } from '../files/within';
import { walkChart } from './chart-walk';
import { HelmIgnore } from './helmignore';
import type { RenderProblem } from './types';

const MAX_SCHEMA_BYTES = 4 * 1024 * 1024;

/**
 * Why a chart must not be rendered, if it must not: helm would read outside the chart (it follows links: a
 * `.Files.Get` of one printed a file from elsewhere into the report), fetch from the network or read outside it
 * (a values schema's `$ref` to a URL or a file), or wait on a FIFO or device (the render held for its timeout).
 */
export function chartInputsOutside(root: string, chartName: string): RenderProblem | undefined {
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    return undefined;
  }
  const problem = (path: string, why: string, line = 0): RenderProblem => ({
    location: { path, line },
    severity: 'warning',
    message: `Chart ${chartName} is not analysed: ${why}; it is not rendered.`,
  });
  const chartYaml = join(root, 'Chart.yaml');
  const unread = new HelmUnread(root);
  let found: RenderProblem | undefined;
  // Past the bound of a walk nothing more is looked at, and the chart is rendered as before: no chart is that large.
  walkChart(
    root,
    (path, entry) => {
      const named = relative(root, path);
      if (entry.isSymbolicLink()) {
        // One that leads nowhere is helm's to report.
        const target = realTarget(path);
        if (target === undefined || unread.ignores(path, isFolder(target))) return false;
        if (!within(realRoot, target)) found = problem(chartYaml, `${named} is a link to ${target}, outside the chart, which helm would read`);
        else if (entry.name === SCHEMA) found = schemaProblem(target, path);
      } else if (unread.ignores(path, false)) return false;
      else if (!entry.isFile()) found = problem(chartYaml, `${named} is not a regular file (a FIFO or a device would hold the render)`);
      else if (entry.name === SCHEMA) found = schemaProblem(path, path);
      else if (entry.name.endsWith('.tgz') && basename(dirname(path)) === 'charts') {
        const ref = archivedSchemaReference(path);
        if (ref) found = problem(chartYaml, `the values schema packed in ${named} refers to ${ref} ($ref), which helm would fetch or read outside the chart`);
      }
      return !!found;
    },
    (folder) => unread.enters(folder),
  );
  return found;

  function schemaProblem(file: string, shownAt: string): RenderProblem | undefined {
    const outside = externalReference(readText(file, MAX_SCHEMA_BYTES) ?? '');
    return outside && problem(shownAt, `its values schema refers to ${outside.ref} ($ref), which helm would fetch or read outside the chart`, outside.line);
  }
}

const SCHEMA = 'values.schema.json';

/** What helm leaves unread under a chart: each chart's (and subchart's) `.helmignore`, applied below its folder. */
class HelmUnread {
  private readonly owners = new Map<string, string>();
  private readonly rules = new Map<string, HelmIgnore>();

  constructor(private readonly root: string) {
    this.owners.set(root, root);
  }

  /** Whether the walk enters `folder`: helm does unless its chart ignores it. */
  enters(folder: string): boolean {
    if (this.ignores(folder, true)) return false;
    const parent = this.ownerOf(folder);
    const isSubchart = basename(dirname(folder)) === 'charts' && existsSync(join(folder, 'Chart.yaml'));
    this.owners.set(folder, isSubchart ? folder : parent);
    return true;
  }

  ignores(path: string, isFolder: boolean): boolean {
    const chart = this.ownerOf(path);
    let rules = this.rules.get(chart);
    if (!rules) this.rules.set(chart, (rules = HelmIgnore.of(chart)));
    return rules.ignores(relative(chart, path).split(sep).join('/'), isFolder);
  }

  /** The chart whose `.helmignore` rules `path`: that of the folder holding it. */
  private ownerOf(path: string): string {
    return this.owners.get(dirname(path)) ?? this.root;
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function readText(path: string, maxBytes: number): string | undefined {
  try {
    return readRegularFileBounded(path, maxBytes).toString('utf8');
  } catch {
    return undefined;
  }
}

/** The first `$ref` of a packed subchart's values schema (`helm dependency build` leaves them packed) that points outside it. */
function archivedSchemaReference(archive: string): string | undefined {
  let tar: Buffer;
  try {
    tar = gunzipSync(readRegularFileBounded(archive, MAX_ARCHIVE_BYTES), { maxOutputLength: MAX_UNPACKED_BYTES });
  } catch {
    // Not a gzip helm can read either: helm says so.
    return undefined;
  }
  for (let at = 0; at + 512 <= tar.length; ) {
    const header = tar.subarray(at, at + 512);
    const field = (start: number, length: number) => header.subarray(start, start + length).toString('utf8').replace(/\0.*$/s, '');
    const name = field(0, 100);
    if (!name) break;
    const size = parseInt(field(124, 12).trim() || '0', 8) || 0;
    const path = [field(345, 155), name].filter(Boolean).join('/');
    const body = at + 512;
    if (path.endsWith(`/${SCHEMA}`)) {
      const outside = externalReference(tar.subarray(body, body + size).toString('utf8'));
      if (outside) return outside.ref;
    }
    at = body + Math.ceil(size / 512) * 512;
  }
  return undefined;
}

const MAX_ARCHIVE_BYTES = 16 * 1024 * 1024;
const MAX_UNPACKED_BYTES = 64 * 1024 * 1024;

function realTarget(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** The first `$ref` of a JSON schema's text that is not a reference inside it (`#/…`), with its line. */
function externalReference(text: string): { ref: string; line: number } | undefined {
  for (const match of text.matchAll(/"\$ref"\s*:\s*"((?:[^"\\]|\\.)*)"/g)) {
    if (match[1].startsWith('#')) continue;
    return { ref: match[1], line: text.slice(0, match.index).split('\n').length - 1 };
  }
  return undefined;
}
