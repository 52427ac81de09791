/**
 * A plain scalar's value as Kubernetes reads it. kubectl, Helm and the API server read YAML through
 * sigs.k8s.io/yaml, whose go-yaml resolves plain scalars the YAML 1.1 way: `yes`, `on` and `y` are true,
 * `010` is 8, `0b101` is 5, `1_000` is 1000. Read as YAML 1.2 (the yaml package's default), `hostNetwork: yes`
 * was the string "yes" and a PDB's `minAvailable: 010` was 10, where the cluster runs with true and 8.
 * Timestamps and sexagesimal numbers (`1:30`) stay strings, as the conversion to JSON leaves them.
 */
export function plainValue(source: string): unknown {
  const first = source.charCodeAt(0);
  const numeric = first === PLUS || first === MINUS || (first >= ZERO && first <= NINE);
  if (!numeric) {
    // Most scalars are names and words that can be nothing but strings.
    if (first !== DOT && !WORD_STARTS.has(first) && source !== '') return source;
    if (WORDS.has(source)) return WORDS.get(source);
    return first === DOT && DOT_FLOAT.test(source) ? finite(source, source) : source;
  }
  // Most numbers are small and decimal.
  if (SMALL_DECIMAL.test(source)) return parseInt(source, 10);
  if (WORDS.has(source)) return WORDS.get(source);
  const plain = source.replace(/_/g, '');
  const integer = goInteger(plain);
  if (integer !== undefined) return integer;
  return FLOAT.test(plain) ? finite(plain, source) : source;
}

/** The tag go-yaml resolves a plain scalar to: what an explicit tag on it must fit (`!!int 1.5` does not, `!!float 1` does). */
export function plainTag(source: string): '!!null' | '!!bool' | '!!int' | '!!float' | '!!str' {
  const value = plainValue(source);
  if (value === null) return '!!null';
  if (typeof value === 'boolean') return '!!bool';
  if (typeof value !== 'number') return '!!str';
  return SMALL_DECIMAL.test(source) || goInteger(source.replace(/_/g, '')) !== undefined ? '!!int' : '!!float';
}

/** A float Go can hold: past its range (`1e400`) ParseFloat fails, and go-yaml keeps the scalar a string. */
function finite(text: string, source: string): number | string {
  const value = parseFloat(text);
  return Number.isFinite(value) ? value : source;
}

const DOT = 0x2e;
const PLUS = 0x2b;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;

/** What a scalar go-yaml looks up as a word may start with (the dot, plus and minus of the infinities aside). */
const WORD_STARTS = new Set([...'yYnNtTfFoO~'].map((c) => c.charCodeAt(0)));
const SMALL_DECIMAL = /^(?:0|-?[1-9][0-9]{0,14})$/;

/** The words go-yaml looks up whole: booleans, nulls (the empty scalar among them), and infinities and NaN. */
const WORDS = new Map<string, unknown>([
  ...['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON'].map((w) => [w, true] as const),
  ...['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF'].map((w) => [w, false] as const),
  ...['', '~', 'null', 'Null', 'NULL'].map((w) => [w, null] as const),
  ...['.nan', '.NaN', '.NAN'].map((w) => [w, NaN] as const),
  ...['.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF'].map((w) => [w, Infinity] as const),
  ...['-.inf', '-.Inf', '-.INF'].map((w) => [w, -Infinity] as const),
]);

/** What Go's ParseFloat takes of a scalar starting with a dot (the words aside): `.5`, `.5e3`. */
const DOT_FLOAT = /^\.[0-9]+(?:[eE][-+]?[0-9]+)?$/;
/** go-yaml's float, tried once the scalar is no integer. */
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;

const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/**
 * The integer Go's ParseInt(s, 0, 64) reads, or failing it ParseUint(s, 0, 64): a sign (ParseInt only), then
 * `0x`, `0o` or `0b` in either case, or a leading 0 for octal, or decimal; undefined outside their range.
 */
function goInteger(text: string): number | undefined {
  const sign = text[0] === '-' || text[0] === '+' ? text[0] : '';
  const digits = text.slice(sign.length);
  const based = /^0([xXoObB])(.+)$/.exec(digits);
  const base = based ? BASES[based[1].toLowerCase()] : digits.length > 1 && digits[0] === '0' ? 8 : 10;
  const body = based ? based[2] : base === 8 ? digits.slice(1) : digits;
  if (!body || !DIGITS[base].test(body)) return undefined;
  const magnitude = BigInt(base === 10 ? body : `${PREFIX[base]}${body}`);
  const value = sign === '-' ? -magnitude : magnitude;
  if (value >= -INT64_MAX - 1n && value <= INT64_MAX) return Number(value);
  return !sign && value <= UINT64_MAX ? Number(value) : undefined;
}

const BASES: Record<string, number> = { x: 16, o: 8, b: 2 };
const PREFIX: Record<number, string> = { 16: '0x', 8: '0o', 2: '0b' };
const DIGITS: Record<number, RegExp> = { 16: /^[0-9a-fA-F]+$/, 10: /^[0-9]+$/, 8: /^[0-7]+$/, 2: /^[01]+$/ };
