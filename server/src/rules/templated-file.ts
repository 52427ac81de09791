import type { Rule } from './types';

export const templatedFile: Rule = {
  meta: {
    id: 'templated-file',
    severity: 'info',
    scenario: 'input',
    title: 'A Helm or other template, not YAML until rendered',
    description:
      'A file with template expressions ({{ … }}) is not a manifest until it is rendered, so it is not analysed. Render it (helm template …) and check the output instead.',
  },
  check({ file, report }) {
    if (!file || file.templateAt === undefined) return;
    const end = file.text.indexOf('}}', file.templateAt);
    report({
      range: file.lines.range(file.templateAt, end === -1 ? file.templateAt + 2 : end + 2),
      message: 'This file is a template (Helm or similar): it is not analysed until rendered. Run `helm template` and check the output.',
    });
  },
};
