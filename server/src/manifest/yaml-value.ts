import { parseDocument, type ToJSOptions } from 'yaml';
import { firstDuplicateKey } from './duplicate-keys';
import { lineNumberAt, lineStartOf } from './text';

/**
 * The value of a YAML text as the yaml package's `parse` gives it (broken YAML and a key written twice in one mapping
 * throw), in time that grows with its size only: the package's own check of keys compares each key of a mapping with
 * every other (a kubeconfig of 40,000 keys in one mapping took 13 s to read, a snapshot or a kustomization as long).
 */
export function parseYamlValue(text: string, options: ToJSOptions = {}): unknown {
  const doc = parseDocument(text, { uniqueKeys: false });
  if (doc.errors.length > 0) throw doc.errors[0];
  const duplicate = firstDuplicateKey(doc.contents);
  if (duplicate) {
    const [at] = duplicate.range;
    // In the package's own words, where its check would have said them.
    throw new Error(`Map keys must be unique at line ${lineNumberAt(text, at) + 1}, column ${at - lineStartOf(text, at) + 1}`);
  }
  return doc.toJS(options);
}
