import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { documentAt, mayHoldResources, parseManifest, parseManifestAfterChanges, parseManifestInSteps, parseWithPackage, resourceFromObject, sameText, type ManifestFile } from '../../server/src/manifest/parse';
import type { TextChange } from '../../server/src/manifest/text';
import { collectGarbage } from '../collect-garbage';
import { pausesOf } from '../steps';
import { runSteps } from '../../server/src/steps';
import { renderTools } from '../render/render-tools';
import { kubectlNames, kubectlReads, kubectlRefuses } from './kubectl-reads';

const rangeText = (file: ManifestFile, start: number, end: number) => file.text.slice(start, end);
const names = (file: ManifestFile) => file.resources.map((r) => `${r.kind}/${r.namespace}/${r.name}`);
const errors = (file: ManifestFile) => file.documents.map((d) => d.parsed.error?.message ?? null);

const service = (name: string) => `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\nspec:\n  selector:\n    app: ${name}\n`;

describe('parseManifest', () => {
  it('reads every document of a multi-document file, with its offset', () => {
    const text = `${service('a')}---\n${service('b')}---\n# only a comment\n`;
    const file = parseManifest('file:///m.yaml', text);
    assert.deepEqual(names(file), ['Service/default/a', 'Service/default/b']);
    assert.equal(file.documents.length, 3);
    const b = file.resources[1];
    assert.equal(b.document!.offset, text.indexOf('---'));
    const [start] = b.node!.range!;
    assert.ok(rangeText(file, b.document!.offset + start, text.length).startsWith('apiVersion: v1\nkind: Service\nmetadata:\n  name: b'));
  });

  it('namespaces: default when unnamed, the given one, and none for cluster-scoped kinds', () => {
    const file = parseManifest('m.yaml', `${service('a')}---\napiVersion: v1\nkind: Service\nmetadata:\n  name: b\n  namespace: shop\n---\napiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n---\napiVersion: v1\nkind: Service\nmetadata: {}\n`);
    assert.deepEqual(names(file), ['Service/default/a', 'Service/shop/b', 'Node//n1', 'Service/default/null']);
  });

  it('namespaces: an unnamed one is the file\'s default namespace when it has one (a Helm release\'s), a named one its own', () => {
    const text = `${service('a')}---\napiVersion: v1\nkind: Service\nmetadata:\n  name: b\n  namespace: default\n---\napiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n`;
    const file = runSteps(parseManifestInSteps('m.yaml', text, undefined, 'shop'));
    assert.deepEqual(names(file), ['Service/shop/a', 'Service/default/b', 'Node//n1']);
  });

  it('reads the items of a List document, each with the range of its own mapping', () => {
    const text = 'apiVersion: v1\nkind: List\nitems:\n  - apiVersion: v1\n    kind: Service\n    metadata: {name: s}\n  - apiVersion: apps/v1\n    kind: Deployment\n    metadata:\n      name: d\n  - not a resource\n';
    const file = parseManifest('list.yaml', text);
    assert.deepEqual(names(file), ['Service/default/s', 'Deployment/default/d']);
    const [start, end] = file.resources[1].node!.range!;
    assert.equal(rangeText(file, start, end), 'apiVersion: apps/v1\n    kind: Deployment\n    metadata:\n      name: d\n');
    assert.equal(parseManifest('l.yaml', 'apiVersion: v1\nkind: ServiceList\nitems: []\n').resources.length, 0, 'an empty list has no resources');
  });

  it('reads merge keys as Kubernetes does: a mapping has the keys of what it merges, but those it sets itself', () => {
    const text = 'apiVersion: v1\nkind: List\nitems:\n  - apiVersion: apps/v1\n    kind: Deployment\n    metadata: {name: a}\n    spec: &spec\n      replicas: 4\n      paused: false\n  - apiVersion: apps/v1\n    kind: Deployment\n    metadata: {name: b}\n    spec:\n      <<: *spec\n      paused: true\n';
    const [, b] = parseManifest('merge.yaml', text).resources;
    assert.deepEqual(b.object.spec, { replicas: 4, paused: true });
  });

  it('reads a document after its %YAML directive without an error (the directive\'s lines, split off before `---`, were "Missing directives-end indicator line")', () => {
    const file = parseManifest('directive.yaml', `%YAML 1.2\n# made by a tool\n---\n${service('a')}`);
    assert.deepEqual(errors(file), [null, null]);
    assert.deepEqual(names(file), ['Service/default/a']);
    assert.deepEqual(errors(parseManifest('content.yaml', '%YAML 1.2\nkind: x\n')).map((e) => !!e), [true], 'content without its marker is still an error');
  });

  it('reads a CRLF document under a long comment header at once, and CRLF directives as directives (each comment line could be matched two ways: 26 lines took 13 s, 33 over 10 minutes)', { timeout: 60_000 }, () => {
    const header = Array.from({ length: 40 }, (_, i) => `# licence line ${i}\r\n`).join('');
    const file = parseManifest('header.yaml', `${header}${service('a').replaceAll('\n', '\r\n')}`);
    assert.deepEqual(errors(file), [null]);
    assert.deepEqual(names(file), ['Service/default/a']);
    const directive = parseManifest('directive.yaml', `%YAML 1.2\r\n${header}---\r\n${service('b').replaceAll('\n', '\r\n')}`);
    assert.deepEqual(errors(directive), [null, null]);
  });

  it('reads a JSON manifest as one document, with ranges', () => {
    const text = '{\n  "apiVersion": "v1",\n  "kind": "Service",\n  "metadata": {"name": "s", "namespace": "ns"}\n}\n';
    const file = parseManifest('file:///svc.json', text);
    assert.deepEqual(names(file), ['Service/ns/s']);
    assert.equal(file.documents.length, 1);
    assert.ok(file.looksLikeKubernetes);
  });

  it('ignores YAML that is not Kubernetes', () => {
    const file = parseManifest('ci.yaml', 'name: build\non:\n  push: {}\njobs:\n  test:\n    runs-on: ubuntu-latest\n');
    assert.deepEqual(file.resources, []);
    assert.equal(file.looksLikeKubernetes, false);
    assert.deepEqual(parseManifest('scalar.yaml', '42\n').resources, []);
    assert.deepEqual(parseManifest('seq.yaml', '- apiVersion: v1\n  kind: Service\n').resources, [], 'a bare sequence is not a resource');
  });

  it('a broken document gets an error with its position, and the others still yield resources', () => {
    const text = `${service('a')}---\napiVersion: v1\nkind: ConfigMap\ndata: [unclosed\n---\n${service('c')}`;
    const file = parseManifest('m.yaml', text);
    assert.deepEqual(names(file), ['Service/default/a', 'Service/default/c']);
    const broken = file.documents[1];
    assert.ok(broken.parsed.error);
    const { offset, length } = broken.parsed.error;
    assert.equal(broken.text.slice(offset, offset + length), 'data: [unclosed', 'an error reported at the end points at the last line written, not at the next document');
    assert.deepEqual(errors(file).map((e) => e === null), [true, false, true]);
  });

  it('a tag named like a member of every object says so, where the parser failed on it with its own TypeError', () => {
    for (const tag of ['!<constructor>', '!<toString>', '!<__proto__>']) {
      const text = `apiVersion: v1\nkind: ConfigMap\ndata:\n  a: ${tag} x\n`;
      const error = parseManifest('m.yaml', text).documents[0].parsed.error!;
      assert.equal(error.message, `its tag ${tag} is named like a built-in member of JavaScript objects, which the YAML parser cannot read (another unknown tag would be read as a plain value)`);
      assert.equal(text.slice(error.offset, error.offset + error.length), tag);
    }
  });

  it('duplicate keys are an error, not a silent last-one-wins', () => {
    const file = parseManifest('m.yaml', 'apiVersion: v1\nkind: Service\nkind: ConfigMap\n');
    const error = file.documents[0].parsed.error!;
    assert.match(error.message, /^the key "kind" appears twice in one mapping/);
    assert.equal(file.text.slice(error.offset, error.offset + error.length), 'kind', 'the error points at the second key');
    assert.deepEqual(file.resources, []);
  });

  it('two merge keys in one mapping merge both: no duplicate key (read with merge keys on, they were "Symbol(<<)" twice)', () => {
    const file = parseManifest('m.yaml', 'apiVersion: v1\nkind: List\nitems:\n  - &a {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n  - &d {data: {x: "1"}}\n  - <<: *a\n    <<: *d\n    metadata: {name: b}\n');
    assert.equal(file.documents[0].parsed.error, undefined);
    assert.deepEqual(file.resources.map((r) => [r.name, r.object.data]), [['a', undefined], ['b', { x: '1' }]]);
  });

  describe('templates', () => {
    it('a Helm template with {{ }} in flow position is a template, not analysed', () => {
      const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Values.name }}\n';
      const file = parseManifest('t.yaml', text);
      assert.equal(file.templateAt, text.indexOf('{{'));
      assert.deepEqual(file.resources, []);
    });

    it('Helm control structures that do not parse make the file a template, not an error', () => {
      const text = `${service('a')}---\napiVersion: v1\nkind: ConfigMap\n{{- if .Values.enabled }}\ndata:\n  a: b\n{{- end }}\n`;
      const file = parseManifest('t.yaml', text);
      assert.equal(file.templateAt, text.indexOf('{{-'));
      assert.deepEqual(file.resources, [], 'no document of a template file is analysed');
      assert.deepEqual(errors(file), [null, null]);
    });

    it('{{ $labels.x }} inside quoted or block scalars of a normal manifest is text', () => {
      const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: alerts\ndata:\n  summary: "{{ $labels.instance }} is down"\n  single: \'{{ $value }}\'\n  rule: |\n    {{ $labels.job }} failed\n  folded: >\n    {{ .Labels }}\n';
      const file = parseManifest('alerts.yaml', text);
      assert.equal(file.templateAt, undefined);
      assert.deepEqual(names(file), ['ConfigMap/default/alerts']);
      assert.equal(file.resources[0].object.data.summary, '{{ $labels.instance }} is down');
    });
  });

  it('an alias bomb gives a clear error quickly instead of hanging', () => {
    const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 10; i++) {
      const prev = String.fromCharCode(96 + i);
      const name = String.fromCharCode(97 + i);
      levels.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(',')}]`);
    }
    const file = parseManifest('bomb.yaml', `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: bomb}\ndata:\n${levels.map((l) => `  ${l}`).join('\n')}\n`);
    assert.match(file.documents[0].parsed.error!.message, /aliases expand to too many nodes/);
    assert.deepEqual(file.resources, []);
  });

  it('collections nested too deeply give a clear error', () => {
    const file = parseManifest('deep.yaml', `apiVersion: v1\nkind: ConfigMap\ndata: ${'['.repeat(9_000)}${']'.repeat(9_000)}\n`);
    assert.match(file.documents[0].parsed.error!.message, /nests collections more than 256 deep/);
    assert.deepEqual(file.resources, []);
  });

  it('collections nested past 256 are not even given to the parser (5.5 million took it past the heap, 2,000 aborted V8): an error where they go too deep', () => {
    const head = 'apiVersion: v1\nkind: ConfigMap\ndata: ';
    // `data` is one level, its brackets the others.
    const file = parseManifest('deeper.yaml', `${head}${'['.repeat(5_500_000)}\n`);
    assert.deepEqual(file.documents[0].parsed.error, { message: 'it nests collections more than 256 deep: not read', offset: head.length + 255, length: 1 });
    const lines = Array.from({ length: 300 }, (_, i) => `${' '.repeat(i)}k${i}:`);
    const block = parseManifest('block.yaml', `apiVersion: v1\nkind: ConfigMap\ndata:\n${lines.join('\n')} 1\n`);
    assert.equal(block.documents[0].parsed.error?.message, 'it nests collections more than 256 deep: not read');
    for (const [name, text] of [['JSON', `{"a": ${'['.repeat(2_000)}${']'.repeat(2_000)}}`], ['a sequence of sequences', `${'- '.repeat(2_000)}x\n`]]) {
      assert.equal(parseManifest(`deep-${name}.yaml`, text).documents[0].parsed.error?.message, 'it nests collections more than 256 deep: not read', name);
    }
  });

  it('collections nested 255 deep are read, by our readers or by the package, alike', () => {
    for (const text of [`{"a": ${'['.repeat(254)}${']'.repeat(254)}}`, `a: ${'['.repeat(254)}${']'.repeat(254)}\n`, `${'- '.repeat(255)}x\n`, `a: &x ${'['.repeat(254)}${']'.repeat(254)}\n`]) {
      const parsed = parseManifest('deep.yaml', text).documents[0].parsed;
      assert.equal(parsed.error, undefined, text.slice(0, 20));
      assert.ok(parsed.root);
    }
  });

  it('brackets that open no collection (terminal colours in a block scalar) are not counted as nesting', () => {
    const colours = '\u001b[31mred '.repeat(20_000);
    const parsed = parseWithPackage(`apiVersion: v1\nkind: ConfigMap\nmetadata: {name: log}\ndata:\n  log: |\n    ${colours}\n`);
    assert.equal(parsed.error, undefined);
    assert.equal((parsed.value as any).data.log, `${colours}\n`);
  });

  describe('parse cache', () => {
    it('an edit re-parses only the document it touched', () => {
      const docs = [service('cache-a'), service('cache-b'), service('cache-c')];
      const before = parseManifest('c.yaml', docs.join('---\n'));
      const after = parseManifest('c.yaml', [docs[0], docs[1].replace('app: cache-b', 'app: cache-b2'), docs[2]].join('---\n'));
      assert.equal(after.documents[0].parsed, before.documents[0].parsed, 'untouched: the same ParsedChunk object');
      assert.equal(after.documents[2].parsed, before.documents[2].parsed, 'untouched, even though its offset moved');
      assert.notEqual(after.documents[1].parsed, before.documents[1].parsed, 'the edited document is parsed again');
      assert.equal(after.resources[1].object.spec.selector.app, 'cache-b2');
      assert.notEqual(after.documents[2].offset, before.documents[2].offset);
    });

    it('after any edit, gives what a parse from scratch gives: documents, offsets, resources and line positions', () => {
      const docs = [service('e-a'), service('e-b'), service('e-b'), service('e-c')];
      const versions = [
        docs,
        [docs[0], docs[1].replace('e-b', 'e-b2'), docs[2], docs[3]],
        [docs[0], docs[1], 'x: 1\n', docs[2], docs[3]],
        [docs[1], docs[2], docs[3]],
        [docs[0], docs[1], docs[2]],
        [docs[3], docs[2], docs[1], docs[0]],
        [docs[0].replace('apiVersion', '# note\napiVersion'), docs[1], docs[2], docs[3]],
        [],
        docs,
      ];
      let previous: ManifestFile | undefined;
      for (const [i, version] of versions.entries()) {
        const text = version.join('---\n');
        const file = parseManifest('e.yaml', text, previous);
        const fresh = parseManifest('e.yaml', text);
        assert.deepEqual(file.documents.map((d) => [d.offset, d.text]), fresh.documents.map((d) => [d.offset, d.text]), `version ${i}`);
        assert.deepEqual(names(file), names(fresh), `version ${i}`);
        for (let offset = 0; offset <= text.length; offset++) assert.deepEqual(file.lines.position(offset), fresh.lines.position(offset), `version ${i}, offset ${offset}`);
        previous = file;
      }
    });

    it('the same text in another file reuses the parse, but resources belong to their own file', () => {
      const a = parseManifest('a.yaml', service('shared'));
      const b = parseManifest('b.yaml', service('shared'));
      assert.equal(a.documents[0].parsed, b.documents[0].parsed);
      assert.equal(a.resources[0].file, a);
      assert.equal(b.resources[0].file, b);
    });
  });
});

describe('characters kubectl refuses', () => {
  const configMap = (value: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  a: ${value}\n`;
  const said = (text: string) => parseManifest('file:///c.yaml', text).documents[0].parsed.error;

  it('a control character anywhere, in a value or a comment, is an error at it, named by its code point', () => {
    const text = configMap('"b\x01c"');
    assert.deepEqual(said(text), { message: 'control character U+0001, which kubectl refuses ("control characters are not allowed")', offset: text.indexOf('\x01'), length: 1 });
    assert.match(said(`# a \x0c form feed\n${configMap('b')}`)!.message, /^control character U\+000C, /);
    assert.match(said(configMap('b\x7fc'))!.message, /^control character U\+007F, /);
    assert.match(said(configMap('"b\x9fc"'))!.message, /^control character U\+009F, /);
    assert.match(said(configMap('b\uFFFEc'))!.message, /^control character U\+FFFE, /);
    for (const allowed of ['"b\tc"', 'b\u0085c', 'b\u00a0c', 'b\u{1F600}c']) assert.equal(said(configMap(allowed)), undefined, JSON.stringify(allowed));
  });

  it('a vertical tab and U+FFFF are control characters kubectl refuses, plain or quoted, each an error at it', () => {
    for (const [value, code] of [['b\x0bc', '000B'], ['"b\x0bc"', '000B'], ['b\uFFFFc', 'FFFF'], ["'b\uFFFFc'", 'FFFF']]) {
      const text = configMap(value);
      const at = text.search(/[\x0b\uFFFF]/);
      assert.deepEqual(said(text), { message: `control character U+${code}, which kubectl refuses ("control characters are not allowed")`, offset: at, length: 1 }, JSON.stringify(value));
    }
  });

  it('JSON is read by a JSON decoder, which takes DEL and C1 controls in strings, as kubectl does', () => {
    const file = parseManifest('file:///c.json', '{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}, "data": {"a": "b\x7fc\x85d\x9fe"}}');
    assert.deepEqual([errors(file), (file.documents[0].parsed.value as { data: { a: string } }).data.a], [[null], 'b\x7fc\x85d\x9fe']);
  });

  it('a file in UTF-16 without a byte-order mark, read as UTF-8 (a NUL beside every character), is said to be one', () => {
    const utf16 = configMap('b').replace(/./gs, (c) => `${c}\0`);
    const file = parseManifest('file:///c.yaml', utf16);
    assert.ok(file.looksLikeKubernetes, 'its keys are found, so invalid-yaml reports it');
    assert.match(file.documents[0].parsed.error!.message, /: the file looks like UTF-16 without a byte-order mark \(save it as UTF-8\)$/);
  });

  const { kubectl, skip } = renderTools();
  it('as kubectl does: what it refuses for a control character is an error, what it reads is not', { skip }, () => {
    // Tab, CR, NEL, U+00A0 and what lies past U+FFFF it reads; escaped in a double-quoted string, anything.
    const values = ['"b\x01c"', 'b\x08c', 'b\x0bc', '"b\x1bc"', 'b\x7fc', '"b\x9fc"', 'b\uFFFEc', 'b\uFFFFc', '"b\tc"', 'b\u00a0c', 'b\u{1F600}c', '"b\\u0001c"', 'b\ufffdc'];
    for (const value of values) {
      const text = configMap(value);
      const refused = /control characters are not allowed/.test(kubectlRefuses(text, kubectl) ?? '');
      assert.equal(/^control character/.test(said(text)?.message ?? ''), refused, JSON.stringify(value));
    }
    assert.equal(kubectlRefuses('{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}, "data": {"a": "b\x7fc\x85d\x9fe"}}', kubectl), undefined, 'JSON with DEL and C1 controls in a string');
  });
});

describe('`---` lines', () => {
  const configMap = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n`;

  it('one that holds more than a comment is an error at what follows it, as kubectl refuses the file', () => {
    const text = `${configMap('a')}--- {apiVersion: v1, kind: ConfigMap, metadata: {name: b}}\n`;
    const file = parseManifest('file:///s.yaml', text);
    assert.deepEqual(file.documents[1].parsed.error, {
      message: 'kubectl refuses the file: its `---` line holds more than a comment ("invalid Yaml document separator"): put what follows `---` on the line below',
      offset: 4,
      length: '{apiVersion: v1, kind: ConfigMap, metadata: {name: b}}'.length,
    });
    assert.match(errors(parseManifest('file:///s.yaml', `--- !!map\n${configMap('a')}`))[0]!, /^kubectl refuses the file: /);
  });

  it('one with a comment or spaces after it is a plain separator', () => {
    assert.deepEqual(names(parseManifest('file:///s.yaml', `${configMap('a')}--- # next\n${configMap('b')}---   \n${configMap('c')}`)), ['ConfigMap/default/a', 'ConfigMap/default/b', 'ConfigMap/default/c']);
  });

  it('one followed by a tab is a separator, with a comment after it or nothing; with content after it, kubectl refuses the file', () => {
    assert.deepEqual(names(parseManifest('file:///s.yaml', `${configMap('a')}---\t\n${configMap('b')}---\t# next\n${configMap('c')}`)), ['ConfigMap/default/a', 'ConfigMap/default/b', 'ConfigMap/default/c']);
    const file = parseManifest('file:///s.yaml', `${configMap('a')}---\tkind: Secret\n${configMap('b')}`);
    assert.deepEqual(file.documents[1].parsed.error, {
      message: 'kubectl refuses the file: its `---` line holds more than a comment ("invalid Yaml document separator"): put what follows `---` on the line below',
      offset: 4,
      length: 'kind: Secret'.length,
    });
  });

  it('as kubectl does', { skip: renderTools().skip }, () => {
    const { kubectl } = renderTools();
    for (const text of [`${configMap('a')}--- {apiVersion: v1, kind: ConfigMap, metadata: {name: b}}\n`, `--- !!map\n${configMap('a')}`, `${configMap('a')}--- # next\n${configMap('b')}`, `${configMap('a')}---\t\n${configMap('b')}`, `${configMap('a')}---\t# next\n${configMap('b')}`, `${configMap('a')}---\tkind: Secret\n${configMap('b')}`]) {
      const refused = /invalid Yaml document separator/.test(kubectlRefuses(text, kubectl) ?? '');
      assert.equal(errors(parseManifest('file:///s.yaml', text)).some((e) => /^kubectl refuses the file: /.test(e ?? '')), refused, JSON.stringify(text));
    }
  });
});

describe('lines that end in a lone CR (classic Mac OS)', () => {
  it('a file that does not parse for them says so, not what the parser makes of one long line', () => {
    const error = parseManifest('file:///m.yaml', 'apiVersion: apps/v1\rkind: Deployment\rmetadata:\r  name: web\r').documents[0].parsed.error!;
    assert.match(error.message, /^its lines end with a lone CR \(classic Mac OS line ends\), which kubectl reads and this tool does not: save it with LF or CRLF line ends\. The parser says: /);
  });

  it('one in a comment that hides the key after it from this tool, not from kubectl, is an error there: the Deployment was read in `default`, not in `shop`', () => {
    for (const [name, brk] of [['a carriage return alone (a classic Mac OS line end)', '\r'], ['U+2028', '\u2028'], ['U+2029', '\u2029'], ['U+0085', '\u0085']]) {
      const text = `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web # the web tier${brk}  namespace: shop\n`;
      const error = parseManifest('file:///m.yaml', text).documents[0].parsed.error;
      assert.deepEqual(error, { message: `${name}, which kubectl reads as a line break and this tool does not, so kubectl reads this document otherwise: write a line feed there (save the file with LF or CRLF line ends)`, offset: text.indexOf(brk), length: 1 }, name);
    }
  });

  const { kubectl, skip } = renderTools();
  it('as kubectl does: the key after one in a comment is a key to it', { skip }, () => {
    for (const brk of ['\r', '\u2028', '\u2029', '\u0085']) {
      const read = kubectlReads(`apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web # the web tier${brk}  namespace: shop\n`, kubectl) as { metadata: { namespace?: string } };
      assert.equal(read.metadata.namespace, 'shop', JSON.stringify(brk));
    }
  });

  it('one that parses all the same is read as before; a stray CR in a file of LF or CRLF line ends is no reason given for an error', () => {
    const file = parseManifest('file:///m.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  a: "x\ry"\n');
    assert.deepEqual(errors(file), [null]);
    for (const text of ['apiVersion: v1\r\nkind: ConfigMap\r\ndata: [x\r\n', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: "a\rb"\ndata: [x\n']) {
      assert.doesNotMatch(parseManifest('file:///m.yaml', text).documents[0].parsed.error!.message, /lone CR/, JSON.stringify(text));
    }
  });
});

describe('documents after a `...` line', () => {
  const web = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n';
  const pdb = 'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: web-pdb\n';

  it('one with no `---` line between is not read, as kubectl reads none: an error on its first line of content says so', () => {
    const text = `${web}...\n# the budget\n${pdb}`;
    const file = parseManifest('file:///d.yaml', text);
    assert.deepEqual(names(file), ['Deployment/default/web']);
    assert.deepEqual(file.documents[1].parsed.error, { message: 'kubectl never reads it: it follows a `...` line with no `---` line between (write `---` above it)', offset: '# the budget\n'.length, length: 1 });
    // Broken YAML there is never read either: it is not reported as broken.
    assert.equal(parseManifest('file:///d.yaml', `${web}...\nfoo: [\n`).documents[1].parsed.error?.message.startsWith('kubectl never reads it'), true);
  });

  it('one that no longer follows a `...` (the lines above it deleted) is read, though its text kept its parse', () => {
    const before = parseManifest('file:///d.yaml', `${web}...\n${pdb}`);
    const after = parseManifest('file:///d.yaml', pdb, before);
    assert.deepEqual([after.resources.map((r) => r.name), errors(after)], [['web-pdb'], [null]]);
  });

  it('one after a `---` line is read; comments after a `...` are no document', () => {
    assert.deepEqual(names(parseManifest('file:///d.yaml', `${web}...\n---\n${pdb}`)), ['Deployment/default/web', 'PodDisruptionBudget/default/web-pdb']);
    assert.deepEqual(errors(parseManifest('file:///d.yaml', `${web}...\n# the end\n`)), [null, null]);
  });

  it('reads what kubectl reads', { skip: renderTools().skip }, () => {
    const { kubectl } = renderTools();
    for (const text of [`${web}...\n${pdb}`, `${web}...\n---\n${pdb}`, `${web}---\n${pdb}...\n# end\n`]) {
      const theirs = kubectlNames(text, kubectl);
      assert.deepEqual(parseManifest('file:///d.yaml', text).resources.map((r) => r.name), theirs, text);
    }
  });
});

describe('parseManifestAfterChanges', () => {
  const PARTS = [service('p-a'), service('p-b'), 'kind: ConfigMap\n', '# only a comment\n', 'a: [1\n', 'x: {{ .Values.x }}\n', '...\n', 'apiVersion: v1\n'];
  function random(seed: number): () => number {
    let state = seed >>> 0;
    return () => ((state = (state * 1664525 + 1013904223) >>> 0), state / 2 ** 32);
  }
  /** A file whose whole text must not be read: the changes are followed from its documents. */
  function unread(file: ManifestFile): ManifestFile {
    return Object.defineProperty(file, 'text', {
      get() {
        throw new Error('the whole text was read');
      },
    });
  }

  it('after random changes, one or several at a time, gives what a parse of the new text gives', () => {
    const next = random(3);
    const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
    for (let round = 0; round < 300; round++) {
      let text = Array.from({ length: 1 + Math.floor(next() * 5) }, () => pick(PARTS)).join(next() < 0.8 ? '---\n' : '');
      let previous = parseManifest('r.yaml', text);
      for (let edit = 0; edit < 4; edit++) {
        const changes: TextChange[] = [];
        for (let k = 0; k < 1 + Math.floor(next() * 3); k++) {
          const start = Math.floor(next() * (text.length + 1));
          const change = { start, end: Math.min(text.length, start + Math.floor(next() * 6)), text: pick(['', 'x', '\n', '---\n', ': ', 'kind: Pod\n', '{{']) };
          text = text.slice(0, change.start) + change.text + text.slice(change.end);
          changes.push(change);
        }
        const file = parseManifestAfterChanges(text ? unread(previous) : previous, changes);
        const fresh = parseManifest('r.yaml', text);
        const context = JSON.stringify(text);
        assert.deepEqual(file.documents.map((d) => [d.offset, d.text]), fresh.documents.map((d) => [d.offset, d.text]), context);
        assert.deepEqual(names(file), names(fresh), context);
        assert.deepEqual([file.looksLikeKubernetes, file.templateAt, file.clusterSnapshot], [fresh.looksLikeKubernetes, fresh.templateAt, fresh.clusterSnapshot], context);
        assert.deepEqual(errors(file), errors(fresh), context);
        for (let offset = 0; offset <= text.length; offset++) assert.deepEqual(file.lines.position(offset), fresh.lines.position(offset), `${context} at ${offset}`);
        for (let line = 0; line < fresh.lines.lineCount; line++) assert.equal(file.lines.lineText(line), fresh.lines.lineText(line), `${context} line ${line}`);
        assert.equal(file.lines.lineCount, fresh.lines.lineCount, context);
        assert.equal(file.text, text, 'the new file joins its text when asked');
        assert.ok(sameText(file, fresh));
        previous = file;
      }
    }
  });

  it('keeps the parses of the documents a change did not touch', () => {
    const text = [service('k-a'), service('k-b'), service('k-c')].join('---\n');
    const before = parseManifest('k.yaml', text);
    const at = text.indexOf('app: k-b') + 'app: k-b'.length;
    const after = parseManifestAfterChanges(unread(before), [{ start: at, end: at, text: '2' }]);
    assert.equal(after.documents[0].parsed, before.documents[0].parsed);
    assert.equal(after.documents[2].parsed, before.documents[2].parsed);
    assert.equal(after.resources[1].object.spec.selector.app, 'k-b2');
  });

  it('keeps no earlier version of the file reachable', async () => {
    // An edit splits its document and one on each side again: the others are taken from the previous file.
    const text = ['g-a', 'g-b', 'g-c', 'g-d', 'g-e'].map(service).join('---\n');
    let file = parseManifest('g.yaml', text);
    const first = new WeakRef(file);
    const at = text.indexOf('app: g-c') + 'app: g-c'.length;
    for (let k = 0; k < 5; k++) file = parseManifestAfterChanges(file, [{ start: at + k, end: at + k, text: 'x' }]);
    assert.equal(file.text.slice(at, at + 5), 'xxxxx', 'the whole text is still there to read');
    // A weak reference holds its target until the current job ends.
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbage();
    assert.equal(first.deref(), undefined, 'the first version is still reachable from the last');
    assert.equal(file.resources[2].object.spec.selector.app, 'g-cxxxxx');
  });

  it('without changes, is the previous file itself', () => {
    const file = parseManifest('n.yaml', service('n'));
    assert.equal(parseManifestAfterChanges(file, []), file);
  });

  it('reads a JSON file whole, as parseManifest does', () => {
    const text = '{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "j"}}\n';
    const at = text.indexOf('"j"') + 2;
    const after = parseManifestAfterChanges(parseManifest('j.json', text), [{ start: at, end: at, text: '\n---\n' }]);
    assert.deepEqual(after.documents.length, 1);
  });
});

describe('sameText', () => {
  it('compares the documents of two files, whichever way they were parsed', () => {
    const a = parseManifest('s.yaml', `${service('s')}---\n${service('t')}`);
    assert.ok(sameText(a, parseManifest('s.yaml', `${service('s')}---\n${service('t')}`)));
    assert.ok(!sameText(a, parseManifest('s.yaml', `${service('s')}---\n${service('u')}`)));
    assert.ok(!sameText(a, parseManifest('s.yaml', service('s'))));
  });
});

describe('parseManifestInSteps', () => {
  it('pauses after each document it parses, not after those an edit left alone, and ends with what parseManifest gives', () => {
    const docs = Array.from({ length: 5 }, (_, i) => service(`steps-${i}`));
    const count = (steps: Generator<void, ManifestFile>) => {
      const { pauses, value } = pausesOf(steps);
      return { pauses, file: value };
    };
    const first = count(parseManifestInSteps('s.yaml', docs.join('---\n'), parseManifest('s.yaml', '')));
    assert.equal(first.pauses, 5);
    const edited = [...docs.slice(0, 4), docs[4].replace('app: steps-4', 'app: steps-4b')].join('---\n');
    const second = count(parseManifestInSteps('s.yaml', edited, first.file));
    assert.equal(second.pauses, 1, 'only the edited document is parsed again');
    assert.deepEqual(names(second.file), names(parseManifest('s.yaml', edited)));
  });
});

describe('documentAt', () => {
  it('finds the document holding an offset, at its first character, inside it, and in the last one', () => {
    const file = parseManifest('d.yaml', [service('a'), service('b'), service('c')].join('---\n'));
    const [a, b, c] = file.documents;
    assert.equal(documentAt(file, 0), a);
    assert.equal(documentAt(file, b.offset), b);
    assert.equal(documentAt(file, b.offset - 1), a);
    assert.equal(documentAt(file, c.offset + 10), c);
    assert.equal(documentAt(file, file.text.length), c);
  });
});

describe('resourceFromObject', () => {
  it('needs a string kind and apiVersion', () => {
    assert.equal(resourceFromObject({ kind: 'Service' }), undefined);
    assert.equal(resourceFromObject({ kind: 3, apiVersion: 'v1' }), undefined);
    assert.deepEqual(
      (({ kind, name, namespace }) => ({ kind, name, namespace }))(resourceFromObject({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: '' } })!),
      { kind: 'Pod', name: 'p', namespace: 'default' },
    );
  });

  it("takes the name of a tool config from its top level (kind's Cluster, kubeadm's ClusterConfiguration)", () => {
    assert.equal(resourceFromObject({ apiVersion: 'kind.x-k8s.io/v1alpha4', kind: 'Cluster', name: 'dev' })!.name, 'dev');
    assert.equal(resourceFromObject({ apiVersion: 'kubeadm.k8s.io/v1beta4', kind: 'ClusterConfiguration', clusterName: 'prod' })!.name, 'prod');
    assert.equal(resourceFromObject({ apiVersion: 'v1', kind: 'Pod', metadata: {}, name: 'not-this' })!.name, null);
  });
});

describe('mayHoldResources', () => {
  const deployment = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n';
  const cases: [string, string, string, boolean][] = [
    ['a manifest', 'x.yaml', deployment, true],
    ['keys in single quotes', 'x.yaml', "'apiVersion': v1\n'kind': ConfigMap\n", true],
    ['a text without an apiVersion (a CI workflow)', 'ci.yml', 'on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n', false],
    ['JSON whose top level is not a resource, though it speaks of kinds', 'api.json', '{"version": "1", "shapes": {"apiVersion": {"kind": "string"}}}', false],
    ['a JSON resource', 'x.json', '{"apiVersion": "v1", "kind": "List", "items": []}', true],
    ['JSON the YAML parser must judge (a comment)', 'x.json', '// kind\n{"apiVersion": "v1", "kind": "ConfigMap"}', true],
  ];
  for (const [name, uri, text, expected] of cases) {
    it(`${name}: ${expected ? 'may hold resources' : 'holds none'}`, () => {
      assert.equal(mayHoldResources(uri, text), expected);
      if (!expected) assert.deepEqual(parseManifest(uri, text).resources, []);
    });
  }
});
