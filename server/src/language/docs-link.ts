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

/** A link to the rule's page shipped with the extension (docs/rules/<id>.md). */
export function ruleDocsHref(ruleId: string): string | undefined {
  if (!root) return undefined;
  // Asked for every diagnostic sent: the file system is asked once per rule.
  if (!hrefs.has(ruleId)) {
    const page = join(root, 'docs', 'rules', `${ruleId}.md`);
    hrefs.set(ruleId, existsSync(page) ? pathToFileURL(page).toString() : undefined);
  }
  return hrefs.get(ruleId);
}

const hrefs = new Map<string, string | undefined>();
