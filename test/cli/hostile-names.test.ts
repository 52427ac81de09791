// What the CLI writes when names of files, resources and cluster objects are written by someone else (a pull request
// CI checks): no line of its own forged, nothing a CI log runs as a workflow command, JSON strict parsers read.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CLI, runCli, type Run } from './run-cli';

const deployment = (name: string) =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${JSON.stringify(name)}\n  namespace: shop\nspec:\n  replicas: 1\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers:\n        - {name: c, image: nginx}\n`;

/** Lines GitHub Actions' runner reads as workflow commands: `::` first after blanks, `##[` anywhere. */
function workflowCommands(output: string): string[] {
  return output.split('\n').filter((line) => line.trimStart().startsWith('::') || line.includes('##['));
}

/** A lone surrogate written as JSON's escape: jq and other strict parsers refuse the whole document. */
const LONE_SURROGATE_ESCAPE = /\\ud[89ab][0-9a-f]{2}(?!\\ud[c-f][0-9a-f]{2})|(?<!\\ud[89ab][0-9a-f]{2})\\ud[c-f][0-9a-f]{2}/i;

describe('the CLI given hostile names', { skip: existsSync(CLI) ? false : 'dist/cli.js is not built (npm run build)' }, () => {
  let dir: string;
  const cli = (args: string[]): Promise<Run> => runCli(args, {}, dir);
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kr-hostile-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('says a file name that holds line breaks on one line of stderr, its breaks escaped (a snapshot named so forged an ::error line)', async () => {
    const name = 'x\n::error file=app.yaml,line=1::Forged finding\n.json';
    writeFileSync(join(dir, name), '{"kind":"List","apiVersion":"v1","kubeResilience":{},"items":[]}');
    const run = await cli(['check', name]);
    rmSync(join(dir, name));
    const said = run.stderr.split('\n').filter(Boolean);
    assert.equal(said.length, 1, run.stderr);
    assert.match(said[0], /x\\n::error file=app\.yaml,line=1::Forged finding\\n\.json is a cluster snapshot/);
    assert.deepEqual(workflowCommands(run.stderr), []);
  });

  it('writes no workflow command that a file name or a resource name forms, in the text report', async () => {
    const file = '::error file=app.yaml,line=1::Forged.yaml';
    writeFileSync(join(dir, file), deployment('x ##[set-output name=verdict]pass ##[error]fake'));
    const run = await cli(['check', file, '--fail-on', 'none']);
    rmSync(join(dir, file));
    assert.match(run.stdout, /Deployment shop\/x #\\u0023\[set-output name=verdict\]pass #\\u0023\[error\]fake runs 1 pod/);
    assert.match(run.stdout, /^\\u003a:error file=app\.yaml,line=1::Forged\.yaml$/m);
    assert.deepEqual(workflowCommands(run.stdout), []);
  });

  it('writes JSON and SARIF that strict parsers read: a lone surrogate as U+FFFD, `##[` escaped, the names unchanged otherwise', async () => {
    writeFileSync(join(dir, 'web.yaml'), deployment('a\ud800b ##[error]x [Open fix](https://evil.example)'));
    for (const format of ['json', 'sarif']) {
      const run = await cli(['check', 'web.yaml', '--format', format, '--fail-on', 'none']);
      assert.doesNotMatch(run.stdout, LONE_SURROGATE_ESCAPE, format);
      assert.deepEqual(workflowCommands(run.stdout), [], format);
      const report = JSON.parse(run.stdout);
      const message: string = format === 'json' ? report.findings[0].message : report.runs[0].results[0].message.text;
      // SARIF's plain text reads `[text](target)` as a link: the name's own brackets are escaped there.
      const name = format === 'json' ? 'a\ufffdb ##[error]x [Open fix](https://evil.example)' : 'a\ufffdb ##\\[error\\]x \\[Open fix\\](https://evil.example)';
      assert.ok(message.includes(`Deployment shop/${name} runs 1 pod`), message);
    }
    const simulated = await cli(['simulate', 'web.yaml', '--fail', 'apiserver', '--format', 'json']);
    assert.doesNotMatch(simulated.stdout, LONE_SURROGATE_ESCAPE);
    assert.ok(JSON.parse(simulated.stdout).workloads.some((w: { name: string }) => w.name === 'a\ufffdb ##[error]x [Open fix](https://evil.example)'));
  });

  it('writes no workflow command a namespace forms in the simulation\'s text report (its capacity line starts with the name)', async () => {
    writeFileSync(join(dir, 'ns.yaml'), deployment('web').replace('namespace: shop', 'namespace: "::error title=Simulation::apiserver"'));
    const run = await cli(['simulate', 'ns.yaml', '--fail', 'apiserver']);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /\\u003a:error title=Simulation::apiserver\/web/);
    assert.deepEqual(workflowCommands(run.stdout), []);
  });

  it('shows names that differ by hidden characters as different (five of six read "web")', async () => {
    const names = ['web', 'web\u200b', 'w\u061ceb', 'web\ufeff', 'web\u2028x', 'web\u{e0041}'];
    writeFileSync(join(dir, 'alike.yaml'), names.map(deployment).join('---\n'));
    const run = await cli(['check', 'alike.yaml', '--fail-on', 'none', '--rule', 'replicas-not-spread=off', '--rule', 'pdb-missing=off']);
    for (const shown of ['web', 'web\\u200b', 'w\\u061ceb', 'web\\ufeff', 'web\\u2028x', 'web\\udb40\\udc41']) assert.ok(run.stdout.includes(`Deployment shop/${shown} runs 1 pod`), `${shown} in\n${run.stdout}`);
  });
});
