import type { Rule } from './types';

export const invalidYaml: Rule = {
  meta: {
    id: 'invalid-yaml',
    severity: 'error',
    scenario: 'input',
    countsDocuments: true,
    title: 'A document that does not parse',
    description:
      'A YAML document that does not parse cannot be applied, and nothing in it can be checked; nor can one kubectl never reads: content after a `...` line with no `---` line between (kubectl splits a file at `---` lines and reads the first document of each piece); and kubectl refuses a whole file for a `---` line that holds more than a comment, for a control character, for a value its tag does not fit (`!!int 1.5`, `!!bool maybe`), or for a null key (`~: a`); and a document holding a line break kubectl reads and this tool does not (a carriage return alone, NEL, U+2028, U+2029) where kubectl then reads other keys (`# the web tier\\rnamespace: shop`). The other documents of the file are still analysed.',
  },
  check({ file, documents, report }) {
    if (!file || !file.looksLikeKubernetes) return;
    for (const document of documents) {
      const error = document.parsed.error;
      if (!error) continue;
      const start = document.offset + error.offset;
      report({
        range: file.lines.range(start, start + Math.max(1, Math.min(error.length, 200))),
        message: `Document ${document.index + 1} does not parse: ${error.message}`,
      });
    }
  },
};
