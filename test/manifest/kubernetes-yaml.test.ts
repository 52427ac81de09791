import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Alias } from 'yaml';
import { parseManifest, parseWithPackage } from '../../server/src/manifest/parse';
import { renderTools } from '../render/render-tools';
import { kubectlReads, kubectlRefuses } from './kubectl-reads';

const base = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: merged\n';

/** Mappings with merge keys, and what Kubernetes makes of their data. */
const CASES: { yaml: string; data: Record<string, unknown> }[] = [
  // A merge overrides the keys written before it, and the keys after it override the merge.
  { yaml: 'data:\n  a: 9\n  <<: {a: 1, b: 2}\n  b: 3\n', data: { a: 1, b: 3 } },
  // Of a list of mappings, the first sets a key the others also set.
  { yaml: 'x: &x {a: 1}\ny: &y {a: 2, b: 2}\ndata:\n  a: 0\n  b: 0\n  c: 0\n  <<: [*x, *y]\n', data: { a: 1, b: 2, c: 0 } },
  // A merged mapping's own merge counts as its keys.
  { yaml: 'x: &x {a: 1}\ny: &y {<<: *x, b: 2}\ndata:\n  a: 0\n  <<: *y\n', data: { a: 1, b: 2 } },
  { yaml: 'x: &x {a: 1}\ndata:\n  <<: *x\n  a: 2\n', data: { a: 2 } },
  // A later merge key sets its keys over an earlier one's.
  { yaml: 'data:\n  <<: {a: "1"}\n  <<: {a: "2"}\n', data: { a: '2' } },
  { yaml: 'data:\n  <<: [{a: "1"}, {b: "2"}]\n  <<: {b: "3"}\n', data: { a: '1', b: '3' } },
  // The key a merge overrides keeps its anchor, which a later alias reads.
  { yaml: 'x:\n  app: &app web\n  <<: {app: api}\ndata:\n  owner: *app\n', data: { owner: 'web' } },
  // In a document the yaml package reads (an anchor in it), 010 and 10 are two keys, and tagged numbers are read as Kubernetes reads them.
  { yaml: 'x: &x {a: 1}\ndata:\n  010: eight\n  10: ten\n  t: !!int 010\n  b: !!bool yes\n', data: { 8: 'eight', 10: 'ten', t: 8, b: true } },
  // What is no merge and no YAML 1.1 word or number stays as written: a quoted `<<`, quoted and tagged strings, an image, a version.
  { yaml: 'x: &x {a: 1}\ndata:\n  "<<": {a: "1"}\n  q: "yes"\n  s: \'010\'\n  t: !!str on\n  v: nginx:1.27\n  w: 1.27\n  z: web\n', data: { '<<': { a: '1' }, q: 'yes', s: '010', t: 'on', v: 'nginx:1.27', w: 1.27, z: 'web' } },
];

describe('merge keys as Kubernetes reads them', () => {
  it('apply where they stand: they override the keys written before them (the yaml package kept those)', () => {
    for (const { yaml, data } of CASES) {
      const value = parseManifest('file:///merged.yaml', base + yaml).documents[0].parsed.value as { data: unknown };
      assert.deepEqual(value.data, data, yaml);
    }
  });

  const { kubectl, skip } = renderTools();
  it('as kubectl does', { skip }, () => {
    for (const { yaml, data } of CASES) {
      assert.deepEqual(kubectlReads(base + yaml, kubectl).data, data, yaml);
    }
  });
});

/** Tagged values and anchors defined twice, and what Kubernetes makes of the ConfigMap's data (and its `x`). */
const TAGS_AND_ANCHORS: { yaml: string; data: Record<string, unknown>; x?: Record<string, unknown> }[] = [
  // A float tag on an integer is that number, read as YAML 1.1 reads it (010 is 8), quoted or not.
  { yaml: "data:\n  f: !!float 1\n  g: !!float 010\n  h: !!float 0x10\n  i: !!float 1_000\n  j: !!float +1\n  k: !!float '010'\n  l: !!float 1.5\n", data: { f: 1, g: 8, h: 16, i: 1000, j: 1, k: 8, l: 1.5 } },
  // A null tag on any spelling of null, quoted or not, or on nothing.
  { yaml: 'data:\n  a: !!null ~\n  b: !!null\n  c: !!null Null\n  d: !!null "null"\n  e: !!null NULL\n', data: { a: null, b: null, c: null, d: null, e: null } },
  // An anchor defined again: each alias (and merge) takes the last definition written before it.
  { yaml: 'x:\n  a: &a one\n  b: *a\n  c: &a two\n  d: *a\ndata:\n  <<: {z: *a}\n  w: *a\n', data: { z: 'two', w: 'two' }, x: { a: 'one', b: 'one', c: 'two', d: 'two' } },
  { yaml: 'x:\n  a: &a one\n  m: {<<: {z: *a}}\n  c: &a two\ndata:\n  <<: [{w: *a}]\n  m: *a\n', data: { m: 'two', w: 'two' }, x: { a: 'one', m: { z: 'one' }, c: 'two' } },
];

describe('tags and anchors as Kubernetes reads them', () => {
  it('a !!float or !!null tag gives the value go-yaml gives, and an anchor defined twice is the later one for the aliases after it', () => {
    for (const { yaml, data, x } of TAGS_AND_ANCHORS) {
      const value = parseManifest('file:///tagged.yaml', base + yaml).documents[0].parsed.value as { data: unknown; x?: unknown };
      assert.deepEqual(value.data, data, yaml);
      if (x) assert.deepEqual(value.x, x, yaml);
    }
  });

  const { kubectl, skip } = renderTools();
  it('as kubectl does', { skip }, () => {
    for (const { yaml, data, x } of TAGS_AND_ANCHORS) {
      const read = kubectlReads(base + yaml, kubectl);
      assert.deepEqual(read.data, data, yaml);
      if (x) assert.deepEqual(read.x, x, yaml);
    }
  });
});

/** Values whose tag their text does not fit, and null keys: each read by the yaml package, each refused by kubectl. */
const REFUSED: { data: string; says: string }[] = [
  { data: '{a: !!float abc}', says: 'a value tagged !!float is no float: kubectl refuses the file ("cannot decode !!str `abc` as a !!float")' },
  { data: '{a: !!int 1.5}', says: 'a value tagged !!int is no int: kubectl refuses the file ("cannot decode !!float `1.5` as a !!int")' },
  { data: '{a: !!int ~}', says: 'a value tagged !!int is no int: kubectl refuses the file ("cannot decode !!null `~` as a !!int")' },
  { data: '{a: !!bool 1}', says: 'a value tagged !!bool is no bool: kubectl refuses the file ("cannot decode !!int `1` as a !!bool")' },
  { data: '{a: !!null x}', says: 'a value tagged !!null is no null: kubectl refuses the file ("cannot decode !!str `x` as a !!null")' },
  { data: '{~: a}', says: 'a null key (`~`, `null`, or none): kubectl refuses the file, as JSON keys are text (quote it to mean the word)' },
  { data: '\n  null: a', says: 'a null key (`~`, `null`, or none): kubectl refuses the file, as JSON keys are text (quote it to mean the word)' },
  // Both: go-yaml refuses the tag as it decodes, before the conversion to JSON meets the key.
  { data: '\n  null: a\n  b: !!float abc', says: 'a value tagged !!float is no float: kubectl refuses the file ("cannot decode !!str `abc` as a !!float")' },
];
/** Tagged values their text fits, and keys that only look null: read as kubectl reads them. */
const READ = [
  { data: '{a: !!float 1, b: !!int "12", c: !!int 0x1F, d: !!bool yes, e: !!null "", f: !!int 1_000, g: !!float "1.5"}', value: { a: 1, b: 12, c: 31, d: true, e: null, f: 1000, g: 1.5 } },
  { data: '{"~": a, "null": b}', value: { '~': 'a', null: 'b' } },
];

describe('what kubectl refuses of tags and keys', () => {
  const refused = (data: string) => parseManifest('file:///tagged.yaml', `${base}data: ${data}\n`).documents[0].parsed;

  it('a value its tag does not fit, or a null key, is an error at it, in kubectl\'s words', () => {
    for (const { data, says } of REFUSED) {
      const text = `${base}data: ${data}\n`;
      const { error } = refused(data);
      assert.equal(error?.message, says, data);
      const at = text.slice(error!.offset, error!.offset + error!.length);
      assert.match(at, /abc|1\.5|~|^1$|^x$|null/, `${data}: placed at what is refused (${JSON.stringify(at)})`);
    }
    for (const { data, value } of READ) assert.deepEqual((refused(data).value as { data: unknown }).data, value, data);
  });

  const { kubectl, skip } = renderTools();
  it('as kubectl does', { skip }, () => {
    for (const { data } of REFUSED) assert.ok(kubectlRefuses(`${base}data: ${data}\n`, kubectl), `kubectl refuses ${data}`);
    for (const { data, value } of READ) assert.deepEqual(kubectlReads(`${base}data: ${data}\n`, kubectl).data, value, data);
  });
});

describe('merge keys in a document of many', () => {
  it('are applied from one walk of the document: no alias is looked up by walking the whole document again (5,000 merges took 141 s, 2,000 merges written in place with an alias in them 18 s)', () => {
    const anchors = Array.from({ length: 300 }, (_, i) => `  s${i}: &s${i} {a: ${i}}`);
    const merges = Array.from({ length: 300 }, (_, i) => `  k${i}: {a: -1, <<: *s${i}}`);
    // A merge written in place whose value holds an alias: built from its nodes, not by the package's toJS.
    const inPlace = Array.from({ length: 300 }, (_, i) => `  - {a: &a${i} {p: ${i}}, k: 0, <<: {k: {v: *a${i}}}}`);
    const text = `${base}anchors:\n${anchors.join('\n')}\ndata:\n${merges.join('\n')}\nitems:\n${inPlace.join('\n')}\n`;
    const resolve = Alias.prototype.resolve;
    let walks = 0;
    Alias.prototype.resolve = function (this: Alias, doc, ctx) {
      // Without a context that has walked it already, the package finds an alias's anchor by walking the whole document.
      if (!(ctx as { aliasResolveCache?: unknown } | undefined)?.aliasResolveCache) walks++;
      return resolve.call(this, doc, ctx);
    };
    try {
      const value = parseWithPackage(text).value as { data: Record<string, { a: number }>; items: { k: unknown }[] };
      assert.deepEqual([value.data.k0, value.data.k299], [{ a: 0 }, { a: 299 }]);
      assert.deepEqual(value.items[299].k, { v: { p: 299 } });
    } finally {
      Alias.prototype.resolve = resolve;
    }
    // The package's own toJS walks it once.
    assert.equal(walks, 1);
  });
});
