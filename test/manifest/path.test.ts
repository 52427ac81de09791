import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseManifest, type Resource } from '../../server/src/manifest/parse';
import { deepestAlong, kindRange, nodeAt, rangeOfPath, type Path } from '../../server/src/manifest/path';
import type { Range } from '../../server/src/manifest/text';

const TEXT = `# leading comment
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3 # three
  template:
    spec:
      containers:
        - name: web
          image: nginx
          ports: [{containerPort: 80}]
      nodeSelector:
`;

const text = (file: { lines: { offset(p: { line: number; character: number }): number } }, range: Range) => TEXT.slice(file.lines.offset(range.start), file.lines.offset(range.end));

describe('rangeOfPath', () => {
  const file = parseManifest('p.yaml', `---\n${TEXT}`.slice(4));
  const resource = file.resources[0];
  const cases: [string, Path, 'key' | 'value' | 'pair' | undefined, string][] = [
    ['the key of an existing pair', ['spec', 'replicas'], undefined, 'replicas'],
    ['the value', ['spec', 'replicas'], 'value', '3'],
    ['the whole pair (key to value end)', ['spec', 'replicas'], 'pair', 'replicas: 3'],
    ['a key inside a sequence item', ['spec', 'template', 'spec', 'containers', 0, 'image'], 'pair', 'image: nginx'],
    ['a key inside a flow collection', ['spec', 'template', 'spec', 'containers', 0, 'ports', 0, 'containerPort'], 'key', 'containerPort'],
    ['a missing field falls back to the deepest existing key', ['spec', 'strategy', 'type'], undefined, 'spec'],
    ['a deeper missing field too', ['spec', 'template', 'metadata', 'labels'], undefined, 'template'],
    ['a key with an empty value', ['spec', 'template', 'spec', 'nodeSelector', 'zone'], undefined, 'nodeSelector'],
    ['nothing of the path exists: the kind line', ['status', 'replicas'], undefined, 'kind'],
    ['the empty path: the kind pair', [], undefined, 'kind: Deployment'],
  ];
  for (const [name, path, target, expected] of cases) {
    it(name, () => assert.equal(text(file, rangeOfPath(resource, path, target)), expected));
  }

  it('kindRange covers `kind: Deployment`', () => {
    const range = kindRange(resource);
    assert.deepEqual(range, { start: { line: 2, character: 0 }, end: { line: 2, character: 16 } });
  });

  it('ranges are absolute in a multi-document file', () => {
    const multi = parseManifest('m.yaml', `apiVersion: v1\nkind: Service\nmetadata: {name: s}\n---\n${TEXT}`);
    const deployment = multi.resources[1] as Resource;
    const range = rangeOfPath(deployment, ['spec', 'replicas']);
    assert.equal(range.start.line, 4 + TEXT.split('\n').findIndex((l) => l.includes('replicas')));
    assert.equal(multi.text.slice(multi.lines.offset(range.start), multi.lines.offset(range.end)), 'replicas');
  });

  it('a resource without a node (read from a cluster) gets an empty range at the start', () => {
    assert.deepEqual(rangeOfPath({ apiVersion: 'v1', kind: 'Pod', name: 'p', namespace: 'default', object: {} }, ['spec']), { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } });
  });
});

describe('nodeAt and deepestAlong', () => {
  const file = parseManifest('p.yaml', TEXT);
  const root = file.resources[0].node;

  it('nodeAt follows keys and indexes', () => {
    assert.equal(String((nodeAt(root, ['spec', 'template', 'spec', 'containers', 0, 'name']) as { value: unknown }).value), 'web');
    assert.equal(nodeAt(root, ['spec', 'template', 'spec', 'containers', 1]), undefined);
    assert.equal(nodeAt(root, ['spec', 'replicas', 'x']), undefined);
    assert.equal(nodeAt(root, ['metadata', 0]), undefined, 'an index into a mapping');
  });

  it('deepestAlong says how many steps exist', () => {
    assert.equal(deepestAlong(root, ['spec', 'template', 'spec', 'containers', 0, 'livenessProbe'])!.depth, 5);
    assert.equal(deepestAlong(root, ['nope'])!.depth, 0);
    assert.equal(deepestAlong(undefined, ['spec']), undefined);
  });
});
