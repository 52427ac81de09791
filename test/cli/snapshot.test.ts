import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { demoObjects } from '../../server/src/cluster/demo';
import { FakeApiServer } from '../cluster/fake-apiserver';
import { tempDir, writeKubeconfig } from '../cluster/kubeconfig-fixtures';
import { CLI, runCli as run } from './run-cli';

function findingKeys(json: string): string[] {
  const report = JSON.parse(json) as { findings: { ruleId: string; resource: { kind: string; namespace: string; name: string } | null; message: string }[] };
  return report.findings.map((f) => `${f.ruleId} ${f.resource?.kind}/${f.resource?.namespace}/${f.resource?.name}: ${f.message}`).sort();
}

describe('kube-resilience snapshot', { skip: existsSync(CLI) ? false : 'dist/cli.js is not built (npm run build)' }, () => {
  let api: FakeApiServer;
  let kubeconfig: string;
  const dir = tempDir('kr-cli-snapshot-');

  before(async () => {
    api = await FakeApiServer.start(demoObjects());
    kubeconfig = writeKubeconfig(join(dir, 'kubeconfig'), [{ name: 'staging', server: api.url, ca: api.ca, token: 't' }, { name: 'elsewhere', server: 'https://127.0.0.1:9', ca: api.ca }], 'elsewhere');
  });
  after(() => api.stop());

  it('writes a v1 List with -o that check --snapshot reads back to the same findings as the live cluster', async () => {
    const file = join(dir, 'staging.json');
    const snapshot = await run(['snapshot', '--kubeconfig', kubeconfig, '--context', 'staging', '-o', file]);
    assert.equal(snapshot.status, 0, snapshot.stderr);
    assert.equal(snapshot.stdout, '');
    assert.match(snapshot.stderr, new RegExp(`^${demoObjects().length} objects from staging written to .*staging\\.json in \\d+\\.\\ds`));
    const list = JSON.parse(readFileSync(file, 'utf8'));
    assert.equal(list.kind, 'List');
    assert.equal(list.items.length, demoObjects().length);
    assert.ok(list.items.every((item: { apiVersion?: string; kind?: string; metadata: { managedFields?: unknown } }) => item.apiVersion && item.kind && !item.metadata.managedFields));

    const fromSnapshot = await run(['check', 'examples', '--snapshot', file, '--format', 'json', '--fail-on', 'none']);
    assert.equal(fromSnapshot.status, 0, fromSnapshot.stderr);
    const live = await run(['check', 'examples', '--kubeconfig', kubeconfig, '--context', 'staging', '--format', 'json', '--fail-on', 'none']);
    assert.equal(live.status, 0, live.stderr);
    assert.deepEqual(findingKeys(fromSnapshot.stdout), findingKeys(live.stdout));
    assert.ok(findingKeys(live.stdout).some((f) => f.includes('Node') || f.includes('kube-system')), 'the cluster adds findings of its own');
  });

  it('prints the snapshot on stdout without -o', async () => {
    const result = await run(['snapshot', '--kubeconfig', kubeconfig, '--context', 'staging']);
    assert.equal(result.status, 0, result.stderr);
    assert.equal(JSON.parse(result.stdout).items.length, demoObjects().length);
  });

  it('check --context reads the context named from KUBECONFIG', async () => {
    const result = await run(['check', 'examples/admin.yaml', '--context', 'staging', '--format', 'json', '--fail-on', 'none'], { KUBECONFIG: kubeconfig });
    assert.equal(result.status, 0, result.stderr);
    assert.ok(api.requests.some((r) => r.path === '/api/v1/nodes'));
  });

  it('warns about resource types it could not read and still writes the rest', async () => {
    api.forbidden.add('poddisruptionbudgets');
    try {
      const file = join(dir, 'partial.json');
      const result = await run(['snapshot', '--kubeconfig', kubeconfig, '--context', 'staging', '-o', file]);
      assert.equal(result.status, 0, result.stderr);
      assert.match(result.stderr, /warning: could not read poddisruptionbudgets from staging: forbidden \(403\)/);
      const list = JSON.parse(readFileSync(file, 'utf8'));
      assert.deepEqual(list.kubeResilience.missing.map((m: { resource: string }) => m.resource), ['poddisruptionbudgets']);
      const check = await run(['check', 'examples/admin.yaml', '--snapshot', file, '--fail-on', 'none']);
      assert.match(check.stderr, /warning: could not read poddisruptionbudgets/);
    } finally {
      api.forbidden.clear();
    }
  });

  it('exits 2 with the reason for an unknown context, an unreachable cluster, or a bad snapshot', async () => {
    const output = join(dir, 'never-written.json');
    const unknown = await run(['snapshot', '--kubeconfig', kubeconfig, '--context', 'nope', '-o', output]);
    assert.equal(unknown.status, 2);
    assert.equal(existsSync(output), false, 'no empty snapshot is left behind');
    assert.match(unknown.stderr, /kube-resilience snapshot: context "nope" is not in kubeconfig .*; known contexts: staging, elsewhere/);

    const down = await run(['check', 'examples/admin.yaml', '--kubeconfig', kubeconfig]);
    assert.equal(down.status, 2);
    assert.match(down.stderr, /kube-resilience check: cannot read cluster "elsewhere-cluster" at https:\/\/127\.0\.0\.1:9 \(context "elsewhere"\): connection refused/);

    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"kind": "List", "items": [{"metadata": {"name": "x"}}]}');
    const badSnapshot = await run(['check', 'examples/admin.yaml', '--snapshot', bad]);
    assert.equal(badSnapshot.status, 2);
    assert.match(badSnapshot.stderr, /kube-resilience check: snapshot .*bad\.json: item 0 has no apiVersion and kind/);
    assert.doesNotMatch(badSnapshot.stderr, /this is a bug/);

    const both = await run(['check', 'examples/admin.yaml', '--snapshot', bad, '--demo']);
    assert.equal(both.status, 2);
    assert.match(both.stderr, /--snapshot and --demo name different clusters: choose one/);
  });

  it('snapshots the embedded demo cluster with --demo', async () => {
    const file = join(dir, 'demo.json');
    const result = await run(['snapshot', '--demo', '-o', file]);
    assert.equal(result.status, 0, result.stderr);
    assert.equal(JSON.parse(readFileSync(file, 'utf8')).items.length, demoObjects().length);
    const demo = await run(['check', 'examples', '--demo', '--format', 'json', '--fail-on', 'none']);
    const fromFile = await run(['check', 'examples', '--snapshot', file, '--format', 'json', '--fail-on', 'none']);
    assert.deepEqual(findingKeys(demo.stdout), findingKeys(fromFile.stdout));
  });

  it('-o onto a symbolic link replaces the link with the snapshot and leaves what it pointed to alone', { skip: process.platform === 'win32' }, async () => {
    const target = join(dir, 'shared-notes.txt');
    writeFileSync(target, 'mine\n');
    const link = join(dir, 'link.json');
    symlinkSync(target, link);
    const result = await run(['snapshot', '--demo', '-o', link]);
    assert.equal(result.status, 0, result.stderr);
    assert.equal(lstatSync(link).isSymbolicLink(), false);
    assert.equal(lstatSync(link).mode & 0o777, 0o600);
    assert.equal(JSON.parse(readFileSync(link, 'utf8')).items.length, demoObjects().length);
    assert.equal(readFileSync(target, 'utf8'), 'mine\n');
  });

  it('-o onto a link to a folder replaces the link too: what it points to is no reason to refuse (it was "not a regular file")', { skip: process.platform === 'win32' }, async () => {
    const folder = join(dir, 'a-folder');
    mkdirSync(folder);
    const link = join(dir, 'folder-link.json');
    symlinkSync(folder, link);
    const result = await run(['snapshot', '--demo', '-o', link]);
    assert.equal(result.status, 0, result.stderr);
    assert.equal(lstatSync(link).isFile(), true);
    assert.deepEqual(readdirSync(folder), []);
  });

  it('-o onto a link that stands for a device or a stream (as /dev/stdout does) is refused, the link kept; -o - is stdout', { skip: process.platform === 'win32' }, async () => {
    const link = join(dir, 'to-null.json');
    symlinkSync('/dev/null', link);
    const refused = await run(['snapshot', '--demo', '-o', link]);
    assert.equal(refused.status, 2);
    assert.match(refused.stderr, /it is a link to a device or a stream, not a file; leave -o out, or give -o -, to write to stdout/);
    assert.equal(lstatSync(link).isSymbolicLink(), true);
    const out = await run(['snapshot', '--demo', '-o', '-'], {}, dir);
    assert.equal(out.status, 0, out.stderr);
    assert.equal(JSON.parse(out.stdout).items.length, demoObjects().length);
    assert.equal(existsSync(join(dir, '-')), false, 'no file named -');
  });

  it('-o "" (an unset shell variable) is a usage error, not stdout', async () => {
    const result = await run(['snapshot', '--demo', '-o', '']);
    assert.equal(result.status, 2);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /-o takes a FILE name/);
  });
});
