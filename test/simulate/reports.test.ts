import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderSimulationMarkdown } from '../../server/src/simulate/report-markdown';
import { renderSimulationText } from '../../server/src/simulate/report-text';
import { simulate } from '../../server/src/simulate/simulate';
import { cluster, workload } from './fixtures';

const result = simulate(cluster(), [workload('api', { 'worker-1': 1, 'worker-2': 1, 'worker-3': 1 }), workload('cart|legacy', { 'worker-2': 1 })], {
  fail: { kind: 'apiserver' },
  duration: 7200,
  events: [{ kind: 'node-reboot', node: 'worker-2', at: 600 }],
});

describe('simulation reports', () => {
  it('summarises the first impacts in plain words, the worst first at the same moment', () => {
    assert.deepEqual(result.summary!.slice(0, 2), [
      'at 0 s the API goes down: no API server is running: nothing can read or write cluster state',
      'at 10 m shop/cart|legacy goes down: worker-2 rebooted: 1 pod of Deployment shop/cart|legacy gone (1 of 1), nothing recreates it while the API is down',
    ]);
    assert.ok(result.summary!.includes('at 10 m shop/api is degraded: worker-2 rebooted: 1 pod of Deployment shop/api gone (1 of 3), nothing recreates it while the API is down'));
    assert.equal(result.summary![result.summary!.length - 1], '2 of 2 workloads affected');
  });

  it('keeps the cluster\'s components and what goes down among the first impacts when there are more than eight, and says how many more the timeline has', () => {
    // Ten workloads degraded at 10 m by a reboot, and cluster DNS down at 40 m by a CoreDNS restart.
    const many = Array.from({ length: 10 }, (_, i) => workload(`w${i}`, { 'worker-1': 1, 'worker-3': 1 }));
    const crowded = simulate(cluster({ coreDns: ['worker-2', 'worker-2'] }), many, { fail: { kind: 'apiserver' }, duration: 7200, events: [{ kind: 'node-reboot', node: 'worker-1', at: 600 }, { kind: 'coredns-restart', at: 2400 }] });
    const summary = crowded.summary!;
    assert.ok(summary.some((line) => /^at 40 m 5 s cluster DNS goes down/.test(line)), summary.join('\n'));
    assert.ok(summary.includes('5 more impacts in the timeline'), summary.join('\n'));
    const times = summary.filter((line) => line.startsWith('at ')).map((line) => line.split(' ').slice(1, 3).join(' '));
    assert.equal(times.length, 8);
    assert.deepEqual(times[0], '0 s', 'in time order');
  });

  it('gives a workload\'s lowest serving as a share of what was desired then, and when it was reached (an HPA that scaled 3 pods to 9 made it "0/9", which never was)', () => {
    const surged = simulate(cluster(), [workload('api', { 'worker-1': 1, 'worker-2': 1, 'worker-3': 1 }, { hpa: { min: 3, max: 9 }, memoryLimit: true })], {
      fail: { kind: 'apiserver' },
      duration: 3600,
      events: [{ kind: 'traffic-surge', namespace: 'shop', workload: 'api', factor: 3, at: 300 }],
    });
    assert.ok(surged.workloads[0].capacity.some((p) => p.desired === 9), 'scaled out once the API returned');
    assert.match(renderSimulationText(surged), /shop\/api \(Deployment, placement observed\): lowest 0\/3 at 5 m 30 s, hurt from 5 m, up to 100 % of new connections blackholed/);
  });

  it('says a workload whole throughout but on fewer nodes so (a DaemonSet after a scale-down was "3/3 throughout")', () => {
    const agent = workload('agent', { 'worker-1': 1, 'worker-2': 1, 'worker-3': 1 }, { kind: 'DaemonSet', fronted: false });
    const result = simulate(cluster(), [agent], { fail: { kind: 'none' }, duration: 3600, events: [{ kind: 'scale-down', node: 'worker-2', at: 300 }] });
    assert.match(renderSimulationText(result), /shop\/agent \(DaemonSet, placement observed\): whole throughout: 3\/3, 2\/2 from 5 m/);
  });

  it('tells the text story moment by moment with the rule each line rests on', () => {
    const text = renderSimulationText(result, { cluster: 'lab' });
    assert.match(text, /^What if every API server fails for 2 h; worker-2 reboots at 10 m \(cluster lab\)\?/);
    assert.match(text, /\n {2}10 m\n(.*\n)* {4}DOWN node worker-2: worker-2 rebooted: every pod on it is gone \[rule 7\]\n/);
    assert.match(text, /shop\/api \(Deployment, placement observed\): lowest 2\/3 at 10 m, up to 33 % of new connections blackholed, whole again at 2 h 10 s/);
  });

  it('drops the subject from each sentence of a reason, and the sentences after the first still begin with a capital', () => {
    const lost = simulate(cluster(), [workload('app', { 'worker-2': 2 })], { fail: { kind: 'nodes', nodes: ['worker-2'] }, duration: 7200, events: [] });
    const text = renderSimulationText(lost);
    assert.match(text, /shop\/app: its pod on worker-2 was evicted .* replaced it; the replacement runs on \S+\. Its pod on worker-2 was evicted/);
    for (const line of text.split('\n')) assert.doesNotMatch(line, /\. [a-z]/, line);
  });

  it('says a workload that wants no pods wants none, and only a CronJob has none between runs', () => {
    const none = simulate(cluster(), [workload('idle', {}, { replicas: 0 }), workload('nightly', {}, { kind: 'CronJob', replicas: 0 })], { fail: { kind: 'apiserver' }, duration: 600, events: [] });
    const text = renderSimulationText(none, {});
    assert.match(text, /shop\/idle \(Deployment\): no pods wanted/);
    assert.match(text, /shop\/nightly \(CronJob\): no pods between runs/);
  });

  it('writes no terminal escape or fake line that a name from the cluster brings, in text or Markdown', () => {
    const hostile = simulate(cluster(), [workload('x\u001b]0;PWNED\u0007\u001b[2J\r\nINJECTED', { 'worker-1': 1 })], { fail: { kind: 'apiserver' }, duration: 3600, events: [{ kind: 'node-reboot', node: 'worker-1', at: 60 }] });
    for (const report of [renderSimulationText(hostile), renderSimulationMarkdown(hostile)]) {
      assert.doesNotMatch(report, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
      assert.ok(report.split('\n').every((line) => !line.startsWith('INJECTED')), 'no line of its own');
    }
  });

  it('shows a name from a manifest or the cluster as written in Markdown: no image, link, HTML or emphasis of its own (a PR comment rendered one)', () => {
    const name = 'web<img src=https://attacker.example/p.png>[x](https://attacker.example)*y*_z_`c`';
    const markdown = renderSimulationMarkdown(simulate(cluster(), [workload(name, { 'worker-1': 1 })], { fail: { kind: 'apiserver' }, duration: 3600, events: [{ kind: 'node-reboot', node: 'worker-1', at: 60 }] }));
    const lines = markdown.split('\n').filter((line) => line.includes('web'));
    assert.ok(lines.length > 1, markdown);
    for (const line of lines) assert.doesNotMatch(line, /(?<!\\)[<[\]*_`]/, line);
  });

  it('renders no link, entity, strikethrough or mention a name brings into Markdown, and shows its hidden characters escaped', () => {
    const name = 'x https://evil.example/login www.evil.example &#x202E;gpj.exe ~~gone~~ @github/team me@corp.example\u200b';
    const markdown = renderSimulationMarkdown(simulate(cluster(), [workload(name, { 'worker-1': 1 })], { fail: { kind: 'apiserver' }, duration: 3600, events: [] }));
    const row = markdown.split('\n').find((line) => line.startsWith('| shop/x'))!;
    assert.ok(row.startsWith('| shop/x https\\[:\\]//evil.example/login www\\[.\\]evil.example &amp;#x202E;gpj.exe \\~\\~gone\\~\\~ \\[@\\]github/team me\\[@\\]corp.example\\\\u200b |'), row);
    // A kubeadm context's name is no mention and no address: it is left as it is.
    assert.match(renderSimulationMarkdown(result, { cluster: 'kubernetes-admin@kubernetes' }), /Cluster: \*\*kubernetes-admin@kubernetes\*\*/);
  });

  it('escapes table cells in Markdown', () => {
    const markdown = renderSimulationMarkdown(result);
    assert.match(markdown, /\| shop\/cart\\\|legacy \| Deployment \| observed \| 0\/1 \| 100 % \| 10 m \| 2 h 10 s \|/);
    const rows = markdown.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| at ') && /^\| \d/.test(l));
    assert.equal(rows.length, result.timeline.length, 'one timeline row per event');
    for (const row of rows) assert.equal(row.split(/(?<!\\)\|/).length, 7, `five cells: ${row}`);
  });
});

describe('counts in the simulator\'s sentences', () => {
  it('say one of a thing in the singular: one worker, one workload, one etcd member, an HPA scaling to one pod', () => {
    const oneWorker = simulate(cluster({ workers: 1, coreDns: ['worker-1'] }), [workload('web', { 'worker-1': 1 }, { hpa: { min: 1, max: 1 } })], {
      fail: { kind: 'none' },
      duration: 7200,
      events: [{ kind: 'traffic-surge', namespace: 'shop', workload: 'web', factor: 3, at: 0 }, { kind: 'upgrade-nodes', at: 600 }],
    });
    const summary = oneWorker.summary!.join('\n');
    assert.match(summary, /The rolling node upgrade of 1 worker takes/);
    assert.match(summary, /\n1 of 1 workload affected$/);
    assert.match(oneWorker.timeline.map((e) => e.reason).join('\n'), /the HPA scales it from 1 to 1 pod within/);
    const quiet = simulate(cluster(), [workload('web', { 'worker-1': 1 })], { fail: { kind: 'scheduler' }, duration: 600, events: [] });
    assert.equal(quiet.summary!.at(-1), 'the 1 workload keeps serving throughout');
    const zero = simulate(cluster(), [workload('web', { 'worker-1': 1 }), workload('off', {}, { replicas: 0 }), workload('nightly', {}, { kind: 'CronJob', replicas: 0 })], { fail: { kind: 'scheduler' }, duration: 600, events: [] });
    assert.deepEqual(zero.summary!.slice(-2), ['1 of 2 workloads affected', '1 workload of no replica: it serves nothing, before or after'], 'one of no replica is not said to keep serving; a CronJob, with no pod between its runs, is no such one (its runs go Pending)');
    const oneMember = simulate(cluster({ etcd: { mode: 'external', members: 1 } }), [], { fail: { kind: 'etcd' }, duration: 600, events: [] });
    assert.ok(oneMember.timeline.some((e) => e.subject.name === 'etcd' && /^external etcd: 1 of 1 member up, quorum needs 1$/.test(e.reason)));
  });
});
