// Two workloads of a chart printing one values key: the values line holds a finding for each, and each
// diagnostic's quick fixes are its own finding's (they were the first one's: an ignore of the other workload).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import type { CodeAction, Diagnostic } from 'vscode-languageserver';
import { sharedReplicasChart, writeChart } from '../render/helm-charts';
import { renderTools } from '../render/render-tools';
import { editorsOnCopies } from './units-editor';

const SERVER = resolve('dist/server.js');
const tools = renderTools();
const skip = (!existsSync(SERVER) && 'dist/server.js is not built (npm run build)') || tools.skip;

describe('a values key two workloads of a chart print, in the language server', { skip }, () => {
  const editors = editorsOnCopies(SERVER, writeChart(sharedReplicasChart, 'shared-replicas'));
  after(() => editors.closeAll());

  it("each workload's diagnostic on the values line gets its own fixes: web's is unsafe for the Redis it also scales, and each ignore names its own workload", async () => {
    const { client, openFile } = await editors.open(true);
    const values = await openFile('values.yaml');
    const singles = (d: Diagnostic[]) => d.filter((x) => x.code === 'single-replica' && x.range.start.line === 1);
    const diagnostics = singles(await client.diagnostics(values, (d) => singles(d).length === 2));
    const titles = async (name: string) => {
      const diagnostic = diagnostics.find((d) => String(d.message).startsWith(`Deployment ${name} `))!;
      const actions = ((await client.codeActions(values, diagnostic.range, diagnostics)) ?? []) as CodeAction[];
      return actions.filter((a) => a.diagnostics?.[0] === undefined || a.diagnostics[0].message === diagnostic.message).map((a) => `${a.isPreferred ? '* ' : ''}${a.title}`);
    };
    const web = await titles('web');
    assert.ok(web.some((t) => /^Run 2 replicas .*unsafe: it also changes Deployment cache: the same values key sets it/.test(t)), web.join('\n'));
    assert.ok(web.some((t) => /^Ignore single-replica for Deployment web\b/.test(t)), web.join('\n'));
    assert.ok(!web.some((t) => /Deployment cache\b.*templates\/cache|Ignore single-replica for Deployment cache/.test(t)), web.join('\n'));
    const cache = await titles('cache');
    assert.ok(cache.some((t) => /^Run 2 replicas .*unsafe: runs a second Redis/.test(t)), cache.join('\n'));
    assert.ok(cache.some((t) => /^Ignore single-replica for Deployment cache\b/.test(t)), cache.join('\n'));
    // Asked with more diagnostics than are looked for one by one (a selection of the whole file), from the server's index.
    for (const [name, other] of [['web', 'cache'], ['cache', 'web']]) {
      const asked = diagnostics.find((d) => String(d.message).startsWith(`Deployment ${name} `))!;
      const pad = diagnostics.find((d) => String(d.message).startsWith(`Deployment ${other} `))!;
      const actions = ((await client.codeActions(values, asked.range, [...Array<Diagnostic>(8).fill(pad), asked])) ?? []) as CodeAction[];
      assert.ok(actions.some((a) => a.diagnostics?.[0]?.message === asked.message && new RegExp(`^Ignore single-replica for Deployment ${name}\\b`).test(a.title)), actions.map((a) => a.title).join('\n'));
    }
  });
});
