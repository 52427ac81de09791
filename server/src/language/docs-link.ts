import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The folder holding the extension's package.json (dist/.. when bundled). */
function packageRoot(): string | undefined {
  let dir = __dirname;
  for (let i = 0; i < 5; i++) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    dir = dirname(dir);
  }
  return undefined;
}

const root = packageRoot();

const hrefs = new Map<string, string | undefined>();

/** A link to a page shipped with the extension under docs/, when it is there. */
function docsPageHref(...path: string[]): string | undefined {
  if (!root) return undefined;
  const page = join(root, 'docs', ...path);
  // Asked for every diagnostic sent: the file system is asked once per page.
  if (!hrefs.has(page)) hrefs.set(page, existsSync(page) ? pathToFileURL(page).toString() : undefined);
  return hrefs.get(page);
}

/** A link to the rule's page shipped with the extension (docs/rules/<id>.md). */
export function ruleDocsHref(ruleId: string): string | undefined {
  return docsPageHref('rules', `${ruleId}.md`);
}

/** A link to a fact sheet shipped with the extension (docs/facts/<sheet>.md). */
export function factsDocsHref(sheet: string): string | undefined {
  return docsPageHref('facts', `${sheet}.md`);
}
