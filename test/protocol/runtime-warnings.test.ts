import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';
import * as manifests from '../rules/manifests';
import { LspClient } from './lsp-client';

const SERVER = resolve('dist/server.js');
const NODE_WARNING = /\(node:\d+\) (\[\w+\] )?\w*Warning/;

// VS Code shows whatever the server logs in its output channel, a Node warning as an error: on Node 22
// (VS Code's) a deprecated built-in loaded by a bundled dependency did so on every start.
describe(`language server on Node ${process.versions.node}`, { skip: existsSync(SERVER) ? false : 'dist/server.js is not built (npm run build)' }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'kr-warnings-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('starts, analyses and exits without a Node runtime warning in its log or on stderr', async () => {
    const client = LspClient.start(SERVER);
    const logged = client.notifications<{ message: string }>('window/logMessage').values;
    try {
      await client.initialize(pathToFileURL(dir).toString());
      const uri = pathToFileURL(join(dir, 'web.yaml')).toString();
      await client.open(uri, manifests.deployment({ name: 'web', spec: '  replicas: 1\n' }));
      const diagnostics = await client.diagnostics(uri, (d) => d.length > 0);
      assert.ok(diagnostics.some((d) => d.code === 'single-replica'), 'the document was analysed');
      assert.equal(await client.shutdown(), 0);
    } finally {
      client.kill();
    }
    assert.deepEqual([...logged.map((l) => l.message), ...client.stderr].filter((line) => NODE_WARNING.test(line)), []);
  });
});
