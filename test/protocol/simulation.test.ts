import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { CancellationTokenSource, LSPErrorCodes, ResponseError, type CodeLens } from 'vscode-languageserver';
import { Methods } from '../../server/src/protocol';
import { SIMULATE_WORKLOAD_COMMAND, validateFindingLocation, validateSimulationInput, validateSimulationResult } from '../../server/src/simulate/messages';
import { LspClient, positionOf } from './lsp-client';

const SERVER = resolve('dist/server.js');

const CHECKOUT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: checkout
  namespace: payments
spec:
  replicas: 1
  selector:
    matchLabels: {app: checkout}
  template:
    metadata:
      labels: {app: checkout}
    spec:
      containers:
        - name: checkout
          image: example/checkout:1
---
# not a workload: no lens
apiVersion: v1
kind: Service
metadata:
  name: checkout
  namespace: payments
spec:
  selector: {app: checkout}
  ports: [{port: 80}]
---
apiVersion: batch/v1
kind: CronJob
metadata:
  name: nightly
  namespace: payments
spec:
  schedule: "0 3 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers: [{name: job, image: example/job:1}]
`;

describe('simulation requests and code lens over stdio', { skip: existsSync(SERVER) ? false : 'dist/server.js is not built (npm run build)' }, () => {
  let dir: string;
  let client: LspClient;
  let uri: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kr-simulate-'));
    const path = join(dir, 'checkout.yaml');
    writeFileSync(path, CHECKOUT);
    uri = pathToFileURL(path).toString();
    client = LspClient.start(SERVER);
    // No cluster is read: the simulation must fall back to the embedded demo cluster.
    // It runs the simulation command, as the VS Code extension does (and says so).
    const result = await client.initialize(pathToFileURL(dir).toString(), { settings: { cluster: 'off' }, clientCommands: [SIMULATE_WORKLOAD_COMMAND] });
    assert.ok(result.capabilities.codeLensProvider, 'the server offers code lenses');
    await client.open(uri, CHECKOUT);
    await client.diagnostics(uri);
  });

  after(() => {
    client?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('draws the demo cluster plus the workspace: control plane with etcd, workers with pods, where DNS runs', async () => {
    const checked = validateSimulationInput(await client.request(Methods.simulationInput, {}));
    assert.ok(checked.ok, !checked.ok ? checked.error : '');
    const input = checked.value;
    assert.deepEqual(input.cluster, { source: 'demo', name: 'demo' });
    const controlPlanes = input.nodes.filter((n) => n.role === 'control-plane');
    assert.ok(controlPlanes.length >= 1 && controlPlanes.every((n) => n.etcdMember), 'stacked etcd: a member on each control-plane node');
    assert.ok(input.nodes.some((n) => n.dns), 'CoreDNS runs somewhere');
    assert.ok(input.workloads.some((w) => w.namespace === 'payments' && w.name === 'checkout'), 'the workspace manifest is simulated with the cluster');
    const placed = input.nodes.flatMap((n) => n.pods).filter((p) => p.workload === 'checkout');
    assert.equal(placed.length, 1, 'its one replica is drawn on one node');
  });

  it('locates the finding a blocked drain links to: its range when the rule fires, the kind line otherwise, null when nothing states it', async () => {
    const single = (await client.diagnostics(uri)).find((d) => d.code === 'single-replica')!;
    const ref = { kind: 'Deployment', namespace: 'payments', name: 'checkout' };
    assert.deepEqual(validateFindingLocation(await client.request(Methods.locateFinding, { ...ref, ruleId: 'single-replica' })), { ok: true, value: { uri, range: single.range } });
    const kindLine = validateFindingLocation(await client.request(Methods.locateFinding, { ...ref, ruleId: 'pdb-blocks-eviction' }));
    assert.ok(kindLine.ok && kindLine.value);
    assert.equal(kindLine.value.range.start.line, 1, 'no such finding: the kind: line of the Deployment');
    assert.deepEqual(await client.request(Methods.locateFinding, { ...ref, name: 'elsewhere', ruleId: 'single-replica' }), null);
    await assert.rejects(client.request(Methods.locateFinding, { ruleId: 3 }), /finding/);
  });

  it('simulates a scenario on the demo cluster with the real engine', async () => {
    const input = await client.request<{ nodes: { name: string; role: string }[] }>(Methods.simulationInput, {});
    const worker = input.nodes.find((n) => n.role === 'worker')!.name;
    const scenario = { fail: { kind: 'apiserver' }, duration: 7200, events: [{ kind: 'node-reboot', node: worker, at: 600 }] };
    const checked = validateSimulationResult(await client.request(Methods.simulate, { scenario }));
    assert.ok(checked.ok, !checked.ok ? checked.error : '');
    const result = checked.value;
    assert.deepEqual(result.scenario, scenario);
    assert.ok(result.timeline.some((e) => e.at === 0 && e.subject.type === 'component' && e.subject.name === 'api' && e.state === 'down'), 'the API is down from 0');
    assert.ok(result.timeline.some((e) => e.at === 600 && e.state !== 'ok'), 'the reboot at 10 m hurts something');
    assert.ok(result.workloads.some((w) => w.namespace === 'payments' && w.name === 'checkout'));
  });

  it('refuses a malformed scenario or one naming a node the cluster lacks, with a message, and keeps answering', async () => {
    await assert.rejects(client.request(Methods.simulate, { scenario: { fail: { kind: 'meteor' }, duration: 60, events: [] } }), /scenario\.fail\.kind: expected one of/);
    await assert.rejects(client.request(Methods.simulate, {}), /scenario: expected an object/);
    await assert.rejects(client.request(Methods.simulate, { scenario: { fail: { kind: 'apiserver' }, duration: 60, events: [{ kind: 'node-reboot', node: 'no-such-node', at: 10 }] } }), /no-such-node/);
    const ok = validateSimulationResult(await client.request(Methods.simulate, { scenario: { fail: { kind: 'scheduler' }, duration: 600, events: [] } }));
    assert.ok(ok.ok);
  });

  it('answers two simulations asked at once each with its own result', async () => {
    const input = await client.request<{ nodes: { name: string; role: string }[] }>(Methods.simulationInput, {});
    const worker = input.nodes.find((n) => n.role === 'worker')!.name;
    const scenarios = [
      { fail: { kind: 'apiserver' }, duration: 7200, events: [{ kind: 'node-reboot', node: worker, at: 600 }] },
      { fail: { kind: 'scheduler' }, duration: 600, events: [] },
    ];
    const results = await Promise.all(scenarios.map((scenario) => client.request(Methods.simulate, { scenario })));
    results.forEach((result, i) => {
      const checked = validateSimulationResult(result);
      assert.ok(checked.ok, !checked.ok ? checked.error : '');
      assert.deepEqual(checked.value.scenario, scenarios[i], `simulation ${i + 1} is answered with its own scenario's result`);
    });
  });

  it('simulates beside the other requests: a hover is answered while a long simulation runs, a cancelled one ends as cancelled, and one whose timeline is more than the view shows is refused with why', async () => {
    const deployment = (i: number) => `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web-${i}}\nspec:\n  replicas: 3\n  selector: {matchLabels: {app: web-${i}}}\n  template:\n    metadata: {labels: {app: web-${i}}}\n    spec: {containers: [{name: app, image: nginx}]}\n`;
    const many = pathToFileURL(join(dir, 'many.yaml')).toString();
    await client.open(many, Array.from({ length: 300 }, (_, i) => deployment(i)).join('---\n'));
    await client.diagnostics(many, (d) => d.length > 0);
    const workers = (await client.request<{ nodes: { name: string; role: string }[] }>(Methods.simulationInput, {})).nodes.filter((n) => n.role === 'worker').map((n) => n.name);
    // 1,000 reboots over a day: each evicts and reschedules the pods of its node (over 400,000 timeline entries, seconds of work).
    const reboots = { fail: { kind: 'none' }, duration: 86400, events: Array.from({ length: 1000 }, (_, i) => ({ kind: 'node-reboot', node: workers[i % workers.length], at: i * 86 })) };
    const order: string[] = [];
    const long = client.request(Methods.simulate, { scenario: reboots }).then(
      () => order.push('simulation answered'),
      (error: Error) => order.push(`simulation refused: ${error.message}`),
    );
    await client.request('textDocument/hover', { textDocument: { uri: many }, position: { line: 1, character: 2 } });
    order.push('hover answered');
    await long;
    assert.equal(order.length, 2);
    assert.equal(order[0], 'hover answered');
    assert.match(order[1], /^simulation refused: a timeline of \d{3},\d{3} entries is more than the 100,000 the view shows: simulate fewer events or a shorter span$/);

    const cancelling = new CancellationTokenSource();
    const cancelled = client.connection.sendRequest(Methods.simulate, { scenario: reboots }, cancelling.token);
    await client.request('textDocument/hover', { textDocument: { uri: many }, position: { line: 1, character: 2 } });
    cancelling.cancel();
    await assert.rejects(cancelled, (error: ResponseError<unknown>) => error.code === LSPErrorCodes.RequestCancelled && error.message === 'the simulation was cancelled');
    const after = validateSimulationResult(await client.request(Methods.simulate, { scenario: { fail: { kind: 'scheduler' }, duration: 600, events: [] } }));
    assert.ok(after.ok, 'a simulation after a cancelled one is answered');
    await client.notify('textDocument/didClose', { textDocument: { uri: many } });
  });

  it('puts a lens on the kind line of each workload, and none elsewhere, which resolves to "What if the control plane dies?" for that workload', async () => {
    const lenses = await client.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } });
    assert.ok(lenses.every((l) => !l.command), 'the command is left to codeLens/resolve');
    const resolved = await Promise.all(lenses.map((l) => client.request<CodeLens>('codeLens/resolve', l)));
    assert.deepEqual(
      resolved.map((l) => ({ line: l.range.start.line, title: l.command?.title, command: l.command?.command, args: l.command?.arguments })),
      [
        { line: positionOf(CHECKOUT, 'kind: Deployment').line, title: 'What if the control plane dies?', command: SIMULATE_WORKLOAD_COMMAND, args: [{ namespace: 'payments', name: 'checkout', kind: 'Deployment' }] },
        { line: positionOf(CHECKOUT, 'kind: CronJob').line, title: 'What if the control plane dies?', command: SIMULATE_WORKLOAD_COMMAND, args: [{ namespace: 'payments', name: 'nightly', kind: 'CronJob' }] },
      ],
    );
    assert.deepEqual(resolved.map((l) => l.range), lenses.map((l) => l.range), 'resolving keeps the place');
  });

  it('offers a client that does not say it runs the simulation command (Neovim, Helix) no lens and no drain link: both failed when picked', async () => {
    const own = LspClient.start(SERVER);
    try {
      await own.initialize(pathToFileURL(dir).toString(), { settings: { cluster: 'off' } });
      await own.open(uri, CHECKOUT);
      await own.diagnostics(uri);
      assert.deepEqual(await own.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } }), []);
      const card = await own.request<{ contents: { value: string } } | null>('textDocument/hover', { textDocument: { uri }, position: positionOf(CHECKOUT, 'kind: Deployment') });
      assert.match(card?.contents.value ?? '', /\| Failure \| What happens \|/);
      assert.doesNotMatch(card?.contents.value ?? '', /command:/);
      const shown = await client.request<{ contents: { value: string } } | null>('textDocument/hover', { textDocument: { uri }, position: positionOf(CHECKOUT, 'kind: Deployment') });
      assert.match(shown?.contents.value ?? '', /\]\(command:kubeResilience\.simulateWorkload\?/, 'the client that runs it gets the link');
    } finally {
      own.kill();
    }
  });

  it('refuses to resolve a lens it did not make, saying what is wrong, and keeps answering', async () => {
    const range = { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } };
    await assert.rejects(client.request('codeLens/resolve', { range }), /not a lens of this server: arguments: expected an object/);
    await assert.rejects(client.request('codeLens/resolve', { range, data: { namespace: 'payments', kind: 'Deployment' } }), /arguments\.name/);
    await assert.rejects(client.request('codeLens/resolve', { range: 'here', data: { namespace: 'payments', name: 'checkout', kind: 'Deployment' } }), /range: expected an object/);
    await assert.rejects(client.request('codeLens/resolve', {}), /not a lens of this server: range: expected an object/);
    assert.equal((await client.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } })).length, 2);
  });
});
