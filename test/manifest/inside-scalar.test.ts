import assert from 'node:assert/strict';
import { it } from 'node:test';
import { insideScalar } from '../../server/src/manifest/inside-scalar';
import { parseManifest } from '../../server/src/manifest/parse';

it('insideScalar: a line start inside a block or quoted scalar of any item, not one between keys, found down one path', () => {
  const text = 'kind: List\nitems:\n  - kind: ConfigMap\n    data:\n      script: |\n        # not a comment\n        echo hi\n  - kind: ConfigMap\n    data:\n      quoted: "a\n        b"\n      plain: c\n';
  const file = parseManifest('file:///list.yaml', text);
  const lineStart = (needle: string) => text.indexOf(needle) - (text.slice(0, text.indexOf(needle)).length - text.lastIndexOf('\n', text.indexOf(needle)) - 1);
  assert.equal(insideScalar(file, lineStart('# not a comment')), true, 'inside the block scalar');
  assert.equal(insideScalar(file, lineStart('        b"')), true, 'inside the quoted one');
  assert.equal(insideScalar(file, lineStart('      plain: c')), false, 'a key line');
  assert.equal(insideScalar(file, lineStart('  - kind: ConfigMap\n    data:\n      quoted')), false, 'an item line');
});
