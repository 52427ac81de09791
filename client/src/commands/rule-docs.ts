import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface RuleDocEntry {
  id: string;
  /** The "What it finds" sentence of the page. */
  finds: string;
  path: string;
}

const RULE_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

function findsOf(page: string): string {
  const match = /## What it finds\s*\n\s*\n([^\n]+)/.exec(page);
  return match ? match[1].trim() : '';
}

/** The rule pages shipped in `docsRoot` (the extension's docs/rules), sorted by id. */
export function listRuleDocs(docsRoot: string): RuleDocEntry[] {
  let names: string[];
  try {
    names = readdirSync(docsRoot).filter((n) => n.endsWith('.md'));
  } catch {
    return [];
  }
  return names
    .map((name) => {
      const path = join(docsRoot, name);
      return { id: name.slice(0, -3), finds: findsOf(readFileSync(path, 'utf8')), path };
    })
    .sort((a, b) => a.id.localeCompare(b.id));
}

/** The page of one rule, or undefined for anything that is not a shipped rule id (a path, a typo). */
export function ruleDocPath(docsRoot: string, ruleId: unknown): string | undefined {
  if (typeof ruleId !== 'string' || !RULE_ID.test(ruleId)) return undefined;
  const path = join(docsRoot, `${ruleId}.md`);
  return existsSync(path) ? path : undefined;
}
