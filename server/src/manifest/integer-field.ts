/**
 * Whether a field of an integer type is written as something else (`"2"`, `2.5`): the API server cannot decode it
 * into the object and refuses the whole object. Unset (or null, which decodes as unset) is not.
 */
export function writtenNotInteger(value: unknown): boolean {
  return value !== undefined && value !== null && !Number.isInteger(value);
}

/** The number digits in quotes stand for (`"3"`), which a fix can write instead; undefined for anything else. */
export function quotedDigits(value: unknown): number | undefined {
  return typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : undefined;
}

/**
 * A value written as no integer, as a message quotes it: a string in quotes, a number as it reads. A number too large for
 * a double (`1e999`) reads as Infinity, which JSON would show as null, a value the API server does take.
 */
export function shownValue(value: unknown): string {
  return typeof value === 'number' && !Number.isFinite(value) ? String(value) : JSON.stringify(value);
}
