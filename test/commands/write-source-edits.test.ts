import assert from 'node:assert/strict';
import { existsSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { writeSourceEdits } from '../../server/src/commands/write-source-edits';

describe('writeSourceEdits: a fix of a chart or overlay is written whole or not at all', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kr-source-edits-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const file = (name: string, content: string | Buffer) => {
    writeFileSync(join(dir, name), content);
    return join(dir, name);
  };
  const setReplicas = (path: string, text: string) => ({ path, against: text, edits: [{ start: text.indexOf('1'), end: text.indexOf('1') + 1, text: '2' }] });

  it('edits the files and creates the new ones', () => {
    const text = '# kept\nreplicaCount: 1\n';
    const values = file('values.yaml', text);
    const outcome = writeSourceEdits({ edits: [setReplicas(values, text)], creates: [{ path: join(dir, 'pdb.yaml'), text: 'kind: PodDisruptionBudget\n' }] });
    assert.ok(outcome && 'undo' in outcome, 'written');
    assert.equal(readFileSync(values, 'utf8'), '# kept\nreplicaCount: 2\n');
    assert.equal(readFileSync(join(dir, 'pdb.yaml'), 'utf8'), 'kind: PodDisruptionBudget\n');
  });

  it('says which file it wrote had other hard links, which keep the text it had (a values.yaml parted from them in silence)', { skip: process.platform === 'win32' && 'hard links' }, () => {
    const text = 'replicaCount: 1\n';
    const values = file('values.yaml', text);
    linkSync(values, join(dir, 'values.yaml.orig'));
    const outcome = writeSourceEdits({ edits: [setReplicas(values, text)], creates: [{ path: join(dir, 'pdb.yaml'), text: 'kind: PodDisruptionBudget\n' }] });
    assert.ok(outcome && 'undo' in outcome, 'written');
    assert.deepEqual(outcome.unlinked, [{ path: realpathSync(values), others: 1 }]);
    assert.equal(readFileSync(join(dir, 'values.yaml.orig'), 'utf8'), text);
  });

  it('a fix written can be undone (its unit no longer renders): the edited file gets its bytes back, the created one goes', () => {
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('# kept\r\nreplicaCount: 1\r\n')]);
    const values = file('values.yaml', bom);
    // As the file is read: without its byte order mark, which the write puts back.
    const text = '# kept\r\nreplicaCount: 1\r\n';
    const outcome = writeSourceEdits({ edits: [setReplicas(values, text)], creates: [{ path: join(dir, 'pdb.yaml'), text: 'kind: PodDisruptionBudget\n' }] });
    assert.ok(outcome && 'undo' in outcome, 'written');
    assert.deepEqual(outcome.undo(), [], 'everything put back');
    assert.deepEqual(readFileSync(values), bom);
    assert.deepEqual(readdirSync(dir), ['values.yaml']);
  });

  it('an undo that cannot put a file back names it, and still puts back the others', () => {
    mkdirSync(join(dir, 'gone'));
    const text = 'replicaCount: 1\n';
    const inGone = join(dir, 'gone', 'values.yaml');
    writeFileSync(inGone, text);
    const kept = file('values.yaml', text);
    const created = join(dir, 'pdb.yaml');
    const outcome = writeSourceEdits({ edits: [setReplicas(inGone, text), setReplicas(kept, text)], creates: [{ path: created, text: 'kind: PodDisruptionBudget\n' }] });
    assert.ok(outcome && 'undo' in outcome, 'written');
    // What the undo meets: the edited file's folder removed, and a folder where the created file was.
    rmSync(join(dir, 'gone'), { recursive: true });
    rmSync(created);
    mkdirSync(join(created, 'inside'), { recursive: true });
    assert.deepEqual(outcome.undo(), [created, inGone], 'those it could not put back, the last written first');
    assert.equal(readFileSync(kept, 'utf8'), text, 'the one it could put back has its text again');
  });

  it('a write that fails undoes those before it: the edited file gets its bytes back, and nothing is created', () => {
    const text = 'resources:\n- app.yaml # replicas: 1\n';
    const kustomization = file('kustomization.yaml', text);
    const created = join(dir, 'pdb.yaml');
    const outcome = writeSourceEdits({
      edits: [setReplicas(kustomization, text)],
      creates: [{ path: created, text: 'kind: PodDisruptionBudget\n' }, { path: join(dir, 'missing-folder', 'other.yaml'), text: 'x: 1\n' }],
    });
    assert.deepEqual(outcome, { path: join(dir, 'missing-folder', 'other.yaml'), reason: 'no such file or directory', notPutBack: [], unlinked: [] });
    assert.equal(readFileSync(kustomization, 'utf8'), text);
    assert.equal(existsSync(created), false);
    assert.deepEqual(readdirSync(dir).sort(), ['kustomization.yaml'], 'no temporary file left');
  });

  it('a file with other hard links written and then put back is said to have parted from them (put back, it is a new file all the same)', { skip: process.platform === 'win32' && 'hard links' }, () => {
    const text = 'resources:\n- app.yaml # replicas: 1\n';
    const kustomization = file('kustomization.yaml', text);
    linkSync(kustomization, join(dir, 'kustomization.yaml.orig'));
    const outcome = writeSourceEdits({ edits: [setReplicas(kustomization, text)], creates: [{ path: join(dir, 'missing-folder', 'other.yaml'), text: 'x: 1\n' }] });
    assert.ok(outcome && 'reason' in outcome);
    assert.deepEqual(outcome.unlinked, [{ path: realpathSync(kustomization), others: 1 }]);
  });

  it('a file that is not UTF-8 is not written (its other bytes would become U+FFFD), nor is anything else', () => {
    const latin1 = Buffer.concat([Buffer.from('# owner: J'), Buffer.from([0xfc]), Buffer.from('rgen\nreplicaCount: 1\n')]);
    const values = file('values.yaml', latin1);
    const text = latin1.toString('utf8');
    const outcome = writeSourceEdits({ edits: [setReplicas(values, text)], creates: [{ path: join(dir, 'pdb.yaml'), text: 'kind: PodDisruptionBudget\n' }] });
    assert.ok(outcome && 'reason' in outcome, 'refused');
    assert.match(outcome.reason, /not UTF-8/);
    assert.deepEqual(readFileSync(values), latin1);
    assert.equal(existsSync(join(dir, 'pdb.yaml')), false);
  });

  it('writes nothing when a file was saved since the fix was computed on it (its offsets would land in the wrong places)', () => {
    const text = 'replicaCount: 1\n';
    const saved = '# edited\n\nreplicaCount: 1\n';
    const values = file('values.yaml', saved);
    const outcome = writeSourceEdits({ edits: [setReplicas(values, text)], creates: [{ path: join(dir, 'pdb.yaml'), text: 'kind: PodDisruptionBudget\n' }] });
    assert.ok(outcome && 'reason' in outcome, 'refused');
    assert.match(outcome.reason, /changed since it was read: not written/);
    assert.equal(readFileSync(values, 'utf8'), saved);
    assert.equal(existsSync(join(dir, 'pdb.yaml')), false);
  });

  it('writes nothing when a file to create exists already, and says so', () => {
    const text = 'replicaCount: 1\n';
    const values = file('values.yaml', text);
    file('pdb.yaml', 'mine\n');
    const outcome = writeSourceEdits({ edits: [setReplicas(values, text)], creates: [{ path: join(dir, 'pdb.yaml'), text: 'theirs\n' }] });
    assert.deepEqual(outcome, { path: join(dir, 'pdb.yaml'), reason: 'a file (or a link) is there already, which this fix would replace: not written', notPutBack: [], unlinked: [] });
    assert.equal(readFileSync(values, 'utf8'), text);
    assert.equal(readFileSync(join(dir, 'pdb.yaml'), 'utf8'), 'mine\n');
  });

  it('writes nothing where a link to nothing holds the name of a file to create (it was replaced by the new file)', { skip: process.platform === 'win32' && 'links' }, () => {
    const text = 'replicaCount: 1\n';
    const values = file('values.yaml', text);
    symlinkSync(join(dir, 'nowhere', 'pdb.yaml'), join(dir, 'pdb.yaml'));
    const outcome = writeSourceEdits({ edits: [setReplicas(values, text)], creates: [{ path: join(dir, 'pdb.yaml'), text: 'theirs\n' }] });
    assert.ok(outcome && 'reason' in outcome, 'not written');
    assert.equal(readFileSync(values, 'utf8'), text);
    assert.ok(lstatSync(join(dir, 'pdb.yaml')).isSymbolicLink());
  });
});
