/** Whether a value read from outside (JSON, YAML, a protocol message) is an object with fields: not null, not an array. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function isObject(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
