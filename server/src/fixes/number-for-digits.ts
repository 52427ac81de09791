import { quotedDigits } from '../manifest/integer-field';
import type { Path } from '../manifest/path';
import type { Resource } from '../manifest/parse';
import type { Fix } from './edit';
import { setField } from './yaml-edit';

/**
 * The fix of a field of an integer type written as digits in quotes (`replicas: "3"`), which the API server refuses:
 * the number, written at `path` (`what` names the field in the title). None for any other value (2.5, "three").
 */
export function numberForDigits(resource: Resource, path: Path, value: unknown, what = String(path[path.length - 1])): Fix | undefined {
  const digits = quotedDigits(value);
  return digits === undefined ? undefined : { title: `Write ${what} as a number (${digits})`, preferred: true, edits: setField(resource, path, digits) ?? [] };
}
