import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { inflateRawSync } from 'node:zlib';

interface ZipEntry {
  name: string;
  read(): Buffer;
}

/** The entries of a zip file, from its central directory (a VSIX is a zip). */
function readZip(zip: Buffer): ZipEntry[] {
  const endOfDirectory = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  assert.ok(endOfDirectory >= 0, 'the file is a zip');
  const count = zip.readUInt16LE(endOfDirectory + 10);
  let at = zip.readUInt32LE(endOfDirectory + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    const method = zip.readUInt16LE(at + 10);
    const compressedSize = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const localHeader = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    entries.push({
      name,
      read() {
        const dataStart = localHeader + 30 + zip.readUInt16LE(localHeader + 26) + zip.readUInt16LE(localHeader + 28);
        const data = zip.subarray(dataStart, dataStart + compressedSize);
        return method === 8 ? inflateRawSync(data) : Buffer.from(data);
      },
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

const ALLOWED = [
  /^extension\.vsixmanifest$/,
  /^\[Content_Types\]\.xml$/,
  /^extension\/package\.json$/,
  /^extension\/(readme|changelog)\.md$/i,
  /^extension\/LICENSE(\.txt)?$/,
  /^extension\/dist\/[^/]+\.js$/,
  /^extension\/docs\/.+/,
  /^extension\/syntaxes\/.+/,
  /^extension\/media\/.+\.(css|svg|png)$/,
  /^extension\/media\/walkthrough\/[^/]+\.md$/,
  /^extension\/examples\/[^/]+\.yaml$/,
  /^extension\/images\/.+/,
];

const built = ['extension', 'server', 'cli', 'webview'].every((name) => existsSync(join('dist', `${name}.js`)));

describe('npm run package: the VSIX', { skip: built ? false : 'dist/ is not built (npm run build)' }, () => {
  let dir: string;
  let entries: ZipEntry[];

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kr-vsix-'));
    const out = join(dir, 'extension.vsix');
    const result = spawnSync(process.execPath, ['scripts/package.mjs', '--no-build', '--out', out], { encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /extension\.vsix\s+\d+(\.\d+)? KiB/, 'prints the path and the size');
    entries = readZip(readFileSync(out));
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('holds the three bundles the editor runs, the manifest, the readme and the licence; not the CLI, which npm installs', () => {
    const names = entries.map((e) => e.name);
    for (const name of ['extension/package.json', 'extension/LICENSE.txt', 'extension/dist/extension.js', 'extension/dist/server.js', 'extension/dist/webview.js']) {
      assert.ok(names.includes(name), `${name} is packaged`);
    }
    assert.ok(!names.includes('extension/dist/cli.js'), 'the CLI is not packaged');
    assert.ok(names.some((n) => /^extension\/readme\.md$/i.test(n)), 'the readme is packaged');
  });

  it('holds nothing outside the allow-list: no node_modules, sources, maps or tests', () => {
    const stray = entries.map((e) => e.name).filter((name) => !ALLOWED.some((pattern) => pattern.test(name)));
    assert.deepEqual(stray, []);
    assert.ok(!entries.some((e) => /node_modules|\.map$|\.ts$|^extension\/(server|client|test|scripts|bench)\//.test(e.name)));
  });

  it('ships every file the walkthrough and the package manifest name: steps, the example, the icon, the changelog', () => {
    const names = new Set(entries.map((e) => e.name));
    const manifest = JSON.parse(entries.find((e) => e.name === 'extension/package.json')!.read().toString('utf8'));
    const steps = manifest.contributes.walkthroughs.flatMap((w: { steps: { media: { markdown?: string; image?: string } }[] }) => w.steps);
    assert.ok(steps.length >= 5);
    for (const step of steps) assert.ok(names.has(`extension/${step.media.markdown ?? step.media.image}`), JSON.stringify(step.media));
    for (const name of ['extension/examples/billing.yaml', `extension/${manifest.icon}`]) assert.ok(names.has(name), name);
    assert.ok([...names].some((n) => /^extension\/changelog\.md$/i.test(n)), 'the changelog is packaged');
    assert.equal(manifest.repository, undefined, 'no made-up repository');
    assert.equal(manifest.qna, false);
  });

  it('ships a package.json whose entry points are packaged', () => {
    const manifest = JSON.parse(entries.find((e) => e.name === 'extension/package.json')!.read().toString('utf8'));
    assert.equal(manifest.main, './dist/extension.js');
    assert.equal(manifest.license, 'Apache-2.0');
    assert.match(entries.find((e) => e.name === 'extension/LICENSE.txt')!.read().toString('utf8'), /Apache License\s+Version 2\.0/);
  });
});
