import { parseDocument, YAMLParseError, type Document, type DocumentOptions, type ParseOptions, type SchemaOptions, type ToJSOptions } from 'yaml';
import { firstDuplicateKey } from './duplicate-keys';
import { LineIndex } from './text';

/**
 * A YAML text parsed as the yaml package parses it, a key written twice in one mapping among its errors as the package
 * would put it there, but found in one pass: the package's own check compares each key of a mapping with every other
 * (a kubeconfig of 40,000 keys in one mapping took 13 s to read, a snapshot, a kustomization or a Chart.yaml as long).
 */
export function parseYamlDocument(text: string, options: ParseOptions & DocumentOptions & SchemaOptions = {}): Document.Parsed {
  const doc = parseDocument(text, { ...options, uniqueKeys: false });
  const duplicate = doc.errors.length ? undefined : firstDuplicateKey(doc.contents);
  if (duplicate) {
    const { line, character } = new LineIndex(text).position(duplicate.range[0]);
    doc.errors.push(new YAMLParseError(duplicate.range, 'DUPLICATE_KEY', `Map keys must be unique at line ${line + 1}, column ${character + 1}`));
  }
  return doc;
}

/** The value of a YAML text as the yaml package's `parse` gives it (broken YAML and a key written twice throw), see parseYamlDocument. */
export function parseYamlValue(text: string, options: ToJSOptions = {}): unknown {
  const doc = parseYamlDocument(text);
  if (doc.errors.length > 0) throw doc.errors[0];
  return doc.toJS(options);
}
