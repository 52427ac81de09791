import { join } from 'node:path';
import { readRegularFileBounded } from '../files/read-bounded';

const MAX_HELMIGNORE_BYTES = 256 * 1024;

/** The rule Helm adds to every chart's: hidden files under templates/ are never read. */
const ALWAYS = 'templates/.?*';

interface Rule {
  pattern: RegExp;
  /** Matched against the path from the chart's folder (the pattern holds a slash), else against the name. */
  onPath: boolean;
  foldersOnly: boolean;
}

/**
 * A chart's `.helmignore`, read as Helm reads it: what helm leaves unread, so that a link or a FIFO there is no input
 * of the render (a Python virtualenv ignored by the chart holds links out of it). With a negation (`!`), or none it
 * can read, it ignores nothing: a file is then looked at whether helm reads it or not. Helm reads the top chart's
 * only, for its subcharts' files too.
 */
export class HelmIgnore {
  private constructor(private readonly rules: Rule[]) {}

  static of(chartDir: string): HelmIgnore {
    let text: string;
    try {
      text = readRegularFileBounded(join(chartDir, '.helmignore'), MAX_HELMIGNORE_BYTES).toString('utf8');
    } catch {
      return new HelmIgnore([ruleOf(ALWAYS)]);
    }
    const lines = text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line && !line.startsWith('#'));
    if (lines.some((line) => line.startsWith('!'))) return new HelmIgnore([ruleOf(ALWAYS)]);
    return new HelmIgnore([...lines, ALWAYS].map(ruleOf));
  }

  /** Whether helm leaves `path` (relative to the chart's folder, `/` between names) unread. */
  ignores(path: string, isFolder: boolean): boolean {
    const name = path.slice(path.lastIndexOf('/') + 1);
    return this.rules.some((rule) => (!rule.foldersOnly || isFolder) && rule.pattern.test(rule.onPath ? path : name));
  }
}

function ruleOf(line: string): Rule {
  const foldersOnly = line.endsWith('/');
  // One trailing `/` marks a folder, as Helm strips one (`vendor//` is no rule for `vendor/`).
  const trimmed = foldersOnly ? line.slice(0, -1) : line;
  // A leading `/` anchors the pattern at the chart's folder: matched against the path, not any name.
  const pattern = trimmed.replace(/^\//, '');
  return { pattern: globToRegExp(pattern), onPath: trimmed.includes('/'), foldersOnly };
}

/** A filepath.Match pattern (`*`, `?`, `[…]` negated by `^` only, none of them crossing a `/`) as a regular expression. */
function globToRegExp(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end < 0) source += '\\[';
      else {
        source += `[${glob.slice(i + 1, end).replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else source += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}
