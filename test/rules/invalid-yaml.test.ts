import { invalidYaml } from '../../server/src/rules/invalid-yaml';
import { ruleTester } from './rule-tester';

const pod = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: ok\nspec:\n  containers: [{name: a, image: a}]\n';

ruleTester(invalidYaml, {
  valid: [
    { name: 'a manifest that parses', code: pod },
    { name: 'broken YAML that is not Kubernetes at all', broken: true, code: 'services:\n  web: [unclosed\n' },
    { name: 'an empty file', code: '' },
  ],
  invalid: [
    {
      name: 'one broken document among good ones: one finding, at the error, naming the document',
      broken: true,
      code: `${pod}---\napiVersion: v1\nkind: Service\nmetadata:\n  name: [unclosed\n---\n${pod}`,
      findings: [{ message: /^Document 2 does not parse: /, line: 11 }],
      output: null,
    },
    {
      name: 'a stray NUL in a file that is no UTF-16: an error at it, which kubectl refuses, with no word of UTF-16',
      broken: true,
      code: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: nul\ndata:\n  a: b\0c\n',
      findings: [{ message: 'Document 1 does not parse: control character U+0000, which kubectl refuses ("control characters are not allowed")', at: '\0', line: 6 }],
      output: null,
    },
    {
      name: 'an alias bomb is refused with a clear message',
      broken: true,
      code: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bomb\ndata:\n  a: &a ["x","x","x","x","x","x","x","x","x"]\n  b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n  c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n  d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n  e: [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n',
      findings: [{ message: /^Document 1 does not parse: .*alias/i }],
    },
  ],
});
