import { plainValue } from '../manifest/plain-scalar';
import type { YamlStyle } from './style';

/**
 * Block YAML for the values fixes write (mappings, sequences, names, numbers, booleans), exactly as the
 * yaml package writes it with the options of yaml-edit's writeOptions, a hundred times faster; undefined
 * for anything that needs its quoting or number rules (the caller asks the package then).
 */
export function plainBlockYaml(value: unknown, style: Pick<YamlStyle, 'indent' | 'indentSeq'>): string | undefined {
  try {
    const one = inline(value);
    if (one !== undefined) return `${one}\n`;
    const lines: string[] = [];
    if (Array.isArray(value)) items(value, 0, style, lines);
    else entries(value as Record<string, unknown>, 0, style, lines);
    return `${lines.join('\n')}\n`;
  } catch (e) {
    if (e === OUTSIDE) return undefined;
    throw e;
  }
}

const OUTSIDE = Symbol('outside what plainBlockYaml writes');

/** The mapping's entries, its keys at `column`. */
function entries(map: Record<string, unknown>, column: number, style: Pick<YamlStyle, 'indent' | 'indentSeq'>, lines: string[]): void {
  const pad = ' '.repeat(column);
  for (const key of Object.keys(map)) {
    const value = map[key];
    const head = `${pad}${plain(key)}:`;
    const one = inline(value);
    if (one !== undefined) lines.push(`${head} ${one}`);
    else {
      lines.push(head);
      if (Array.isArray(value)) items(value, column + style.indent - (style.indentSeq ? 0 : 2), style, lines);
      else entries(value as Record<string, unknown>, column + style.indent, style, lines);
    }
  }
}

/** The sequence's items, their dashes at `column`. */
function items(list: unknown[], column: number, style: Pick<YamlStyle, 'indent' | 'indentSeq'>, lines: string[]): void {
  const pad = ' '.repeat(column);
  for (const item of list) {
    const one = inline(item);
    if (one !== undefined) lines.push(`${pad}- ${one}`);
    else if (Array.isArray(item)) throw OUTSIDE;
    else {
      const first = lines.length;
      entries(item as Record<string, unknown>, column + 2, style, lines);
      lines[first] = `${pad}- ${lines[first].slice(column + 2)}`;
    }
  }
}

/** A value written on its line (a scalar, `[]` or `{}`); undefined for a collection written below it. */
function inline(value: unknown): string | undefined {
  if (isScalar(value)) return scalar(value);
  return isEmpty(value) ? (Array.isArray(value) ? '[]' : '{}') : undefined;
}

function isScalar(value: unknown): boolean {
  return value === null || typeof value !== 'object';
}

function isEmpty(value: unknown): boolean {
  return Array.isArray(value) ? value.length === 0 : Object.keys(value as object).length === 0;
}

function scalar(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number' && Number.isSafeInteger(value) && !Object.is(value, -0)) return String(value);
  if (typeof value === 'string') return plain(value);
  throw OUTSIDE;
}

/** A name written plain: one that Kubernetes cannot read as anything but that string (not `yes`, `on` or `null`). */
function plain(text: string): string {
  if (!(NAME.test(text) || QUANTITY.test(text)) || plainValue(text) !== text) throw OUTSIDE;
  return text;
}

const NAME = /^[A-Za-z_/][A-Za-z0-9_./-]*$/;
/** Quantities and durations (256Mi, 100m, 30s): digits first, but no number or date YAML could read. */
const QUANTITY = /^[0-9]+(?:m|[KMGTP]i?|s|ms|h)$/;
