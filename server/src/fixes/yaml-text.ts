import { Document, Scalar, visit, type ToStringOptions } from 'yaml';
import { plainValue } from '../manifest/plain-scalar';

/**
 * `value` written as YAML that Kubernetes reads back as `value`: a string it would read as something else is
 * quoted (`yes`, `on`, `010`, and Go's prefixed numbers `0o17` and `0X1F`, which the yaml package's YAML 1.1
 * schema writes plain, and go-yaml reads as 15 and 31). Keys too.
 */
export function yamlText(value: unknown, options: ToStringOptions = {}): string {
  const doc = new Document(value, { version: '1.1' });
  visit(doc, {
    Scalar(_, node) {
      if (typeof node.value === 'string' && !node.value.includes('\n') && plainValue(node.value) !== node.value) node.type = options.singleQuote ? Scalar.QUOTE_SINGLE : Scalar.QUOTE_DOUBLE;
    },
  });
  return doc.toString(options);
}

/** A scalar as yamlText writes it, on its line. */
export function yamlScalar(value: unknown): string {
  return yamlText(value).replace(/\n$/, '');
}

/** A value as yamlText writes it in block style, each line moved to `column`. */
export function yamlLines(value: unknown, column: number): string[] {
  return yamlText(value, { lineWidth: 0 })
    .replace(/\n$/, '')
    .split('\n')
    .map((line) => ' '.repeat(column) + line);
}
