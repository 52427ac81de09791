import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { completionsAt } from '../../server/src/explain/completion';
import { LineIndex } from '../../server/src/manifest/text';
import { RULES } from '../../server/src/rules/index';

const METAS = RULES.map((r) => r.meta);
const CURSOR = '¦';

/** Completions where `¦` stands in the text. */
function complete(textWithCursor: string) {
  const offset = textWithCursor.indexOf(CURSOR);
  const text = textWithCursor.replace(CURSOR, '');
  const before = text.slice(0, offset).split('\n');
  return completionsAt(new LineIndex(text), { line: before.length - 1, character: before[before.length - 1].length }, METAS);
}

const labels = (text: string) => complete(text).map((c) => c.label);

const DEPLOYMENT = (annotations: string, body = '  replicas: 1\n') => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  annotations:
${annotations}spec:
${body}`;

describe('completion', () => {
  it('rule ids after the ignore directive, with severity and title', () => {
    const items = complete(DEPLOYMENT('    a: b\n', `  # kube-resilience-ignore ¦\n  replicas: 1\n`));
    assert.deepEqual(items.map((c) => c.label), METAS.map((m) => m.id));
    const single = items.find((c) => c.label === 'single-replica')!;
    assert.equal(single.kind, 'rule');
    assert.match(single.detail, /^warning · One replica and no autoscaler$/);
    assert.deepEqual(single.range, { start: { line: 7, character: 27 }, end: { line: 7, character: 27 } });
  });

  it('offers first the rules reported on the line the comment speaks for (the next key, past other comments)', () => {
    const text = DEPLOYMENT('    a: b\n', `  # kube-resilience-ignore \n  # a note\n  replicas: 1\n`);
    const reported: Record<number, string[]> = { 9: ['replicas-not-spread', 'single-replica'], 1: ['pdb-missing'] };
    const items = completionsAt(new LineIndex(text), { line: 7, character: 27 }, METAS, (line) => reported[line] ?? []);
    const order = METAS.map((m) => m.id).filter((id) => reported[9].includes(id));
    assert.deepEqual(items.slice(0, 2).map((c) => c.label), order);
    assert.equal(items.length, METAS.length, 'the other rules follow');
  });

  it('replaces the rule id being typed, and leaves out the ones already listed', () => {
    const items = complete(DEPLOYMENT('    a: b\n', `  # kube-resilience-ignore single-replica, probe-r¦\n  replicas: 1\n`));
    assert.ok(!items.some((c) => c.label === 'single-replica'), 'single-replica is already there');
    const readiness = items.find((c) => c.label === 'probe-readiness-missing')!;
    assert.deepEqual(readiness.range, { start: { line: 7, character: 43 }, end: { line: 7, character: 50 } });
  });

  it('a position past the end of its line stands for the end: the range replaces text that is there', () => {
    const text = DEPLOYMENT('    a: b\n', `  # kube-resilience-ignore single-replica, probe-r\n  replicas: 1\n`);
    const items = completionsAt(new LineIndex(text), { line: 7, character: 500 }, METAS);
    assert.deepEqual(items.find((c) => c.label === 'probe-readiness-missing')?.range, { start: { line: 7, character: 43 }, end: { line: 7, character: 50 } });
  });

  it('nothing in the reason after --', () => {
    assert.deepEqual(labels(DEPLOYMENT('    a: b\n', `  # kube-resilience-ignore single-replica -- because ¦\n  replicas: 1\n`)), []);
  });

  it('the directive itself in a comment being typed', () => {
    assert.deepEqual(labels(DEPLOYMENT('    a: b\n', `  # kube-res¦\n  replicas: 1\n`)), ['kube-resilience-ignore']);
  });

  it('the directive completed mid-word replaces the whole word, and adds no second space before what follows', () => {
    const [item] = complete(DEPLOYMENT('    a: b\n', `  # kube-resilience-ig¦nroe single-replica\n  replicas: 1\n`));
    assert.equal(item.label, 'kube-resilience-ignore');
    assert.deepEqual(item.range, { start: { line: 7, character: 4 }, end: { line: 7, character: 26 } });
    assert.equal(item.insertText, 'kube-resilience-ignore');
    assert.equal(complete(DEPLOYMENT('    a: b\n', `  # kube-resilience-ig¦nore: single-replica\n  replicas: 1\n`))[0].insertText, 'kube-resilience-ignore', 'nor before its colon');
    assert.equal(complete(DEPLOYMENT('    a: b\n', `  # kube-res¦\n  replicas: 1\n`))[0].insertText, 'kube-resilience-ignore ');
  });

  it('no annotation key inside the indentation of a line that holds one (it split the line)', () => {
    assert.deepEqual(labels(DEPLOYMENT('   ¦ team: shop\n')), []);
    assert.deepEqual(labels(DEPLOYMENT('    ¦team: shop\n')), [], 'nor right before its key, which it replaced');
    assert.ok(labels(DEPLOYMENT('    ¦\n')).includes('kube-resilience/sessions'), 'on a line of its own');
    assert.ok(labels(DEPLOYMENT('    "¦"\n')).includes('kube-resilience/sessions'), 'inside the quotes an editor closed');
  });

  it('a value of sessions right after the colon takes the space YAML needs, and replaces what follows', () => {
    const [item] = complete(DEPLOYMENT('    kube-resilience/sessions:¦ external\n'));
    assert.equal(item.insertText, ' in-memory');
    assert.deepEqual(item.range, { start: { line: 5, character: 29 }, end: { line: 5, character: 38 } });
    const [beforeComment] = complete(DEPLOYMENT('    kube-resilience/sessions:¦ # why\n'));
    assert.deepEqual([beforeComment.insertText, beforeComment.range.end.character], [' in-memory', 29], 'a comment after it keeps its space');
  });

  it('rule ids in the ignore annotation, quoted or not', () => {
    assert.ok(labels(DEPLOYMENT('    kube-resilience/ignore: ¦\n')).includes('pdb-missing'));
    const items = labels(DEPLOYMENT('    kube-resilience/ignore: "pdb-missing,sin¦"\n'));
    assert.ok(items.includes('single-replica'));
    assert.ok(!items.includes('pdb-missing'));
  });

  it('the accepted values of sessions', () => {
    const items = complete(DEPLOYMENT('    kube-resilience/sessions: ¦\n'));
    assert.deepEqual(items.map((c) => c.label), ['in-memory', 'external']);
    assert.match(items[0].documentation!, /loses them/);
  });

  it('the kube-resilience annotation keys under annotations:, filtered by what is typed', () => {
    const all = complete(DEPLOYMENT('    ¦\n'));
    assert.deepEqual(all.map((c) => c.label), ['kube-resilience/startup-seconds', 'kube-resilience/sessions', 'kube-resilience/session-seconds', 'kube-resilience/ignore']);
    assert.equal(all[0].insertText, 'kube-resilience/startup-seconds: ');
    assert.match(all[0].detail, /positive whole number of seconds/);
    assert.deepEqual(labels(DEPLOYMENT('    kube-resilience/s¦\n')), ['kube-resilience/startup-seconds', 'kube-resilience/sessions', 'kube-resilience/session-seconds']);
    assert.match(all[2].detail, /positive whole number of seconds, quoted \(e\.g\. "3600"\)/);
    assert.deepEqual(labels(DEPLOYMENT('    example.com/¦\n')), []);
  });

  it('completed inside a word, replaces the whole word, keeps a colon and a closing quote already there: the YAML stays valid', () => {
    /** The line `¦` is on once the completion labelled `label` is applied there. */
    const applied = (textWithCursor: string, label: string) => {
      const item = complete(textWithCursor).find((c) => c.label === label)!;
      const text = textWithCursor.replace(CURSOR, '');
      const line = text.split('\n')[item.range.start.line];
      return line.slice(0, item.range.start.character) + item.insertText + line.slice(item.range.end.character);
    };
    assert.equal(applied(DEPLOYMENT('    kube-re¦silience/startup-seconds: "30"\n'), 'kube-resilience/startup-seconds'), '    kube-resilience/startup-seconds: "30"');
    assert.equal(applied(DEPLOYMENT('    kube-resilience/sessions: in-¦mem\n'), 'in-memory'), '    kube-resilience/sessions: in-memory');
    assert.equal(applied(DEPLOYMENT('    "kube¦"\n'), 'kube-resilience/startup-seconds'), '    "kube-resilience/startup-seconds": ');
    assert.equal(applied(DEPLOYMENT('    kube-resilience/ignore: pdb-mi¦ss\n'), 'pdb-missing'), '    kube-resilience/ignore: pdb-missing');
    assert.equal(applied('# kube-resilience-ignore single-rep¦x\n', 'single-replica'), '# kube-resilience-ignore single-replica');
  });

  it('no annotation keys outside annotations:', () => {
    assert.deepEqual(labels(DEPLOYMENT('    a: b\n', '  ¦\n')), []);
  });
});
