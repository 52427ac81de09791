/**
 * Whether a field of an integer type is written as something else (`"2"`, `2.5`): the API server cannot decode it
 * into the object and refuses the whole object. Unset (or null, which decodes as unset) is not.
 */
export function writtenNotInteger(value: unknown): boolean {
  return value !== undefined && value !== null && !Number.isInteger(value);
}
