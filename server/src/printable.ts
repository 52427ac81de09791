/**
 * Characters text from outside (an API answer, a plugin's stderr, a resource's or a file's name) must not bring to a
 * terminal or a log raw: control characters, which clear the screen, set its title or start fake lines; the Unicode
 * controls that reorder text on screen (U+202E shows "gpj.exe" as "exe.jpg"); and the invisible ones (zero-width
 * characters, marks, the BOM, tag characters), which make `web` and `web\u200b` two names that look alike.
 */
const BEYOND_ASCII_CONTROLS = '\\u007f-\\u009f\\u061c\\u180e\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u2064\\u2066-\\u206f\\ufeff\\ufff9-\\ufffb';
const TAG_CHARACTERS = '\\udb40[\\udc00-\\udc7f]';
const HIDDEN = new RegExp(`[\\u0000-\\u001f${BEYOND_ASCII_CONTROLS}]|${TAG_CHARACTERS}`, 'g');
/** Those JSON.stringify leaves as they are (it escapes the controls of ASCII but DEL). */
const HIDDEN_IN_JSON = new RegExp(`[${BEYOND_ASCII_CONTROLS}]|${TAG_CHARACTERS}`, 'g');

/** Text from outside as it may be shown: one line, each hidden character written as its escape, trimmed. */
export function printable(text: string): string {
  return withoutControls(text.trim());
}

/**
 * One line of output as it may reach a terminal: each hidden character written as its escape (`\n`, `\u001b`,
 * `\u200b`), so that names that differ are seen to differ, and can be looked for; the rest as it is. The escapes are
 * also JSON's, so a JSON document keeps its value.
 */
export function withoutControls(text: string): string {
  return text.replace(HIDDEN, escaped);
}

const NAMED_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escaped(hidden: string): string {
  return NAMED_ESCAPES[hidden] ?? [...hidden].map(unicodeEscape).join('');
}

/** `\uXXXX` for each UTF-16 unit (a tag character is two). */
function unicodeEscape(character: string): string {
  let out = '';
  for (let i = 0; i < character.length; i++) out += `\\u${character.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}

/**
 * A line of output as a CI log may read it: GitHub Actions takes a line that starts with `::` (after blanks), and
 * `##[` anywhere, for a workflow command (`::error …::`, `##[set-output name=…]`), which a name or a file's name
 * could forge. Their first character is written as its escape (JSON's, so a JSON document keeps its value).
 */
export function inertInCiLogs(line: string): string {
  return line.replaceAll('##[', '#\\u0023[').replace(/^(\s*):(?=:)/, '$1\\u003a');
}

/** A line break or the text's start, then blanks, then `::`: where a line of a text is one inertInCiLogs changes. */
const COMMAND_AT_LINE_START = /(?:^|\n)[^\S\n]*::/;

/**
 * Each line of a text as inertInCiLogs writes it. A text that holds neither form is given back whole: a JSON report of
 * 3,600 findings is 5 MB, and splitting it into lines to find none took 5 % of its `check`.
 */
export function inertLinesInCiLogs(text: string): string {
  if (!text.includes('##[') && !COMMAND_AT_LINE_START.test(text)) return text;
  return text.split('\n').map(inertInCiLogs).join('\n');
}

/** Lone surrogates (`"\ud800"` in YAML) as U+FFFD, as Go decodes them: strict JSON parsers refuse them escaped. */
export function wellFormed(text: string): string {
  return text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

/**
 * A value as the JSON the CLI writes: well-formed strings and keys, hidden characters outside ASCII escaped (JSON
 * escapes those of ASCII itself), and nothing a CI log takes for a command.
 */
export function jsonText(value: unknown): string {
  const plain = JSON.stringify(value, null, 2);
  // JSON.stringify writes each lone surrogate as its escape: a text without one needs no value made well-formed, and
  // the replacer, called for each of the 100,000 values of a report of 3,600 findings, took 4 % of its `check`.
  const text = ESCAPED_SURROGATE.test(plain) ? JSON.stringify(value, wellFormedValues, 2) : plain;
  return inertInCiLogs(text.replace(HIDDEN_IN_JSON, escaped));
}

/** A surrogate's escape in JSON text (or text that spells one: `\\ud800` in a value; it only costs the slower way). */
const ESCAPED_SURROGATE = /\\ud[89a-f]/i;

/** Strings and keys of a value, as JSON.stringify hands them to a replacer, made well-formed. */
function wellFormedValues(_key: string, v: unknown): unknown {
  if (typeof v === 'string') return wellFormed(v);
  if (!v || typeof v !== 'object' || Array.isArray(v) || Object.keys(v).every((k) => wellFormed(k) === k)) return v;
  return Object.fromEntries(Object.entries(v).map(([k, inner]) => [wellFormed(k), inner]));
}
