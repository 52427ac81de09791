import { DECLARED_ANNOTATIONS, IGNORE_ANNOTATION, SESSIONS_ANNOTATION, SESSION_VALUES } from '../manifest/declared';
import { skipSpaces, type Position, type Range } from '../manifest/text';
import type { RuleMeta } from '../rules/types';

export interface Completion {
  label: string;
  kind: 'rule' | 'annotation' | 'value' | 'directive';
  detail: string;
  documentation?: string;
  /** Text that replaces `range`. */
  insertText: string;
  range: Range;
}

const SESSION_MEANING: Record<string, string> = {
  'in-memory': 'Sessions live in the pod: a drain or scale-down that evicts it loses them.',
  external: 'Sessions live in a shared store (Redis, a database): a pod may die without losing them.',
};

const DIRECTIVE = 'kube-resilience-ignore';

/** A text read line by line (a line without its end): completion reads a few lines around the cursor, never the whole text. */
export interface TextLines {
  readonly lineCount: number;
  lineText(line: number): string;
}

function lineRange(line: number, start: number, end: number): Range {
  return { start: { line, character: start }, end: { line, character: end } };
}

function ruleCompletions(rules: readonly RuleMeta[], already: readonly string[], line: number, start: number, end: number, first: readonly string[] = []): Completion[] {
  const rank = (r: RuleMeta) => (first.includes(r.id) ? 0 : 1);
  return [...rules]
    .sort((a, b) => rank(a) - rank(b))
    .filter((r) => !already.includes(r.id))
    .map((r) => ({ label: r.id, kind: 'rule' as const, detail: `${r.severity} · ${r.title}`, documentation: r.description, insertText: r.id, range: lineRange(line, start, end) }));
}

/** The line a `# kube-resilience-ignore` comment on `line` speaks for: the next one that is neither blank nor a comment. */
function suppressedLine(lines: TextLines, line: number): number {
  let next = line + 1;
  while (next < lines.lineCount && isBlankOrComment(lineOf(lines, next))) next++;
  return next;
}

function isBlankOrComment(text: string): boolean {
  const trimmed = text.trim();
  return !trimmed || trimmed.startsWith('#');
}

/** The key of the mapping that holds `line` (the nearest line above that is indented less), if any. */
function parentKey(lines: TextLines, line: number, indent: number): string | undefined {
  for (let i = line - 1; i >= 0; i--) {
    const text = lineOf(lines, i);
    if (isBlankOrComment(text)) continue;
    const own = /^\s*/.exec(text)![0].length;
    if (own < indent) return /^\s*(?:-\s+)?([^\s:#]+)\s*:\s*(?:#.*)?$/.exec(text)?.[1];
  }
  return undefined;
}

/**
 * Completions at `position` in a YAML text: rule ids in `# kube-resilience-ignore` comments (those
 * `reportedOn` the line below first) and in `kube-resilience/ignore` values, the `kube-resilience/…` keys under `annotations:`, and the values of `sessions`.
 */
export function completionsAt(lines: TextLines, position: Position, rules: readonly RuleMeta[], reportedOn: (line: number) => readonly string[] = () => []): Completion[] {
  const lineText = lineOf(lines, position.line);
  const { line } = position;
  // A position past the line's end means its end (as the protocol says): a range past it would be no place in the text.
  const character = Math.min(position.character, lineText.length);
  const before = lineText.slice(0, character);

  const comment = /^(\s*#\s*)(\S*)$/.exec(before);
  if (comment && DIRECTIVE.startsWith(comment[2]) && comment[2].length > 0) {
    // The whole word, as rule ids are replaced: completed mid-word, `kube-resilience-ig¦nroe` kept its `nroe`.
    const end = wordEnd(lineText, character, RULE_ID_CHARACTERS);
    const insertText = /[\s:]/.test(lineText[end] ?? '') ? DIRECTIVE : `${DIRECTIVE} `;
    return [{ label: DIRECTIVE, kind: 'directive', detail: 'Suppress rules for the finding on the next line', insertText, range: lineRange(line, comment[1].length, end) }];
  }

  const directive = /^\s*#\s*kube-resilience-ignore:?\s+(.*)$/.exec(before);
  if (directive && !directive[1].includes('--')) {
    const word = /[a-z0-9-]*$/.exec(before)![0];
    const listed = directive[1].split(/[\s,]+/).filter(Boolean).slice(0, word ? -1 : undefined);
    // The rules reported on the line the comment suppresses are the ones a person is about to type.
    return ruleCompletions(rules, listed, line, character - word.length, wordEnd(lineText, character, RULE_ID_CHARACTERS), reportedOn(suppressedLine(lines, line)));
  }

  const value = /^\s*(?:-\s+)?(["']?)(kube-resilience\/[\w.-]+)\1\s*:\s*(["']?)([^"'#]*)$/.exec(before);
  if (value) {
    const [, , key, , written] = value;
    if (key === IGNORE_ANNOTATION) {
      const word = /[a-z0-9-]*$/.exec(written)![0];
      const listed = written.split(',').map((s) => s.trim()).filter(Boolean).slice(0, word ? -1 : undefined);
      return ruleCompletions(rules, listed, line, character - word.length, wordEnd(lineText, character, RULE_ID_CHARACTERS));
    }
    if (key === SESSIONS_ANNOTATION) {
      // Right after the colon the value takes the space YAML needs there (`sessions:in-memory` is one key), and
      // replaces the spaces and the word after the cursor.
      const bare = before.endsWith(':');
      const next = skipSpaces(lineText, character);
      // A comment after the spaces keeps them (`sessions: in-memory# why` is one value).
      const end = bare && VALUE_CHARACTERS.test(lineText[next] ?? '') ? wordEnd(lineText, next, VALUE_CHARACTERS) : wordEnd(lineText, character, VALUE_CHARACTERS);
      return SESSION_VALUES.map((v) => ({ label: v, kind: 'value' as const, detail: `${SESSIONS_ANNOTATION}`, documentation: SESSION_MEANING[v], insertText: bare ? ` ${v}` : v, range: lineRange(line, character - written.length, end) }));
    }
    return [];
  }

  const key = /^(\s*)(["']?)([\w./-]*)$/.exec(before);
  // Not inside the indentation of a line that holds something, nor right before its key: a key there would split the
  // line, or replace the key written.
  const inIndentation = key?.[3] === '' && !key[2] && /^\s*\S/.test(lineText.slice(character));
  if (key && key[1].length > 0 && !inIndentation && parentKey(lines, line, key[1].length) === 'annotations') {
    const [, indent, quote, typed] = key;
    // Completed inside a key, the rest of it is replaced, with the closing quote an editor may have put after the
    // cursor; a colon already there is kept (it was written twice: `kube-resilience/startup-seconds: silience/…: "30"`).
    let end = wordEnd(lineText, character, KEY_CHARACTERS);
    if (quote && lineText[end] === quote) end++;
    const colon = /^\s*:/.test(lineText.slice(end)) ? '' : ': ';
    return DECLARED_ANNOTATIONS.filter((a) => a.key.startsWith(typed)).map((a) => ({
      label: a.key,
      kind: 'annotation' as const,
      detail: `Accepts ${a.accepts}`,
      documentation: a.description,
      insertText: `${a.key}${quote}${colon}`,
      range: lineRange(line, indent.length + quote.length, end),
    }));
  }
  return [];
}

const RULE_ID_CHARACTERS = /[a-z0-9-]/;
const VALUE_CHARACTERS = /[^"'#\s,]/;
const KEY_CHARACTERS = /[\w./-]/;

/** Where the word the cursor at `character` is in ends: a completion replaces all of it, not only what is before the cursor. */
function wordEnd(lineText: string, character: number, word: RegExp): number {
  let end = character;
  while (end < lineText.length && word.test(lineText[end])) end++;
  return end;
}

/** The text of `line`, or '' past either end. */
function lineOf(lines: TextLines, line: number): string {
  return line >= 0 && line < lines.lineCount ? lines.lineText(line) : '';
}
