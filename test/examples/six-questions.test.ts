import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fixFile } from '../../server/src/fixes/apply';
import { Inventory } from '../../server/src/inventory/inventory';
import { parseManifest } from '../../server/src/manifest/parse';
import { analyzeFile } from '../../server/src/rules/engine';
import type { Finding } from '../../server/src/rules/types';
import { hover } from '../explain/hover-helpers';

/**
 * The six questions the advisor exists to answer, each asked of a manifest in examples/: the finding
 * that answers it, the hover card that explains it, and the fix (or why there is none).
 */

interface Asked {
  file: string;
  text: string;
  findings: Finding[];
}

function ask(name: string): Asked {
  const file = `examples/${name}`;
  const text = readFileSync(file, 'utf8');
  const inventory = new Inventory();
  const parsed = parseManifest(`file:///examples/${name}`, text);
  inventory.setFile(parsed);
  return { file, text, findings: analyzeFile(parsed, inventory) };
}

function finding(asked: Asked, ruleId: string, message: RegExp): Finding {
  const found = asked.findings.find((f) => f.ruleId === ruleId);
  assert.ok(found, `${asked.file} gets a ${ruleId} finding; got ${asked.findings.map((f) => f.ruleId).join(', ')}`);
  assert.match(found.message, message);
  return found;
}

/** The card's table row for a scenario of the workload whose kind line is `kindLine`. */
function cardRow(asked: Asked, kindLine: string, scenario: string): string {
  const card = hover(asked.text, kindLine);
  assert.ok(card, `${asked.file} has a card on ${kindLine}`);
  const line = card.split('\n').find((l) => l.startsWith(`| ${scenario} |`) || l.startsWith(`| ${scenario}, `));
  assert.ok(line, `the card has a ${scenario} row`);
  return line;
}

/** The text after the rule's preferred fixes, which must no longer get that finding. */
function fixed(asked: Asked, ruleId: string): string {
  const inventory = new Inventory();
  const uri = `file:///${asked.file}`;
  const { text } = fixFile(uri, asked.text, inventory, {}, (f) => f.ruleId === ruleId);
  assert.notEqual(text, asked.text, `the ${ruleId} fix changes ${asked.file}`);
  const after = parseManifest(uri, text);
  inventory.setFile(after);
  assert.deepEqual(analyzeFile(after, inventory).filter((f) => f.ruleId === ruleId && f.fixes.some((x) => x.preferred)).map((f) => f.message), []);
  return text;
}

describe('the six questions, asked of examples/', () => {
  it('1. If our single master dies, do requests still reach pods? Yes, on a frozen view; a lone replica is not replaced', () => {
    const admin = ask('admin.yaml');
    finding(admin, 'single-replica', /while the control plane is down it is not replaced at all/);
    assert.match(cardRow(admin, 'kind: Deployment', 'Control plane down'), /keeps serving on a frozen view; if its pod dies, it is down/);
    assert.match(fixed(admin, 'single-replica'), /replicas: 2/);
  });

  it('2. Our legacy app starts in 20 minutes and keeps sessions in memory: how do we stop Kubernetes moving it without cause?', () => {
    const billing = ask('billing.yaml');
    finding(billing, 'probe-startup-missing', /declares a start of 1200 s, but liveness kills it after 30 s/);
    finding(billing, 'sessions-lost-on-eviction', /keeps sessions in memory/);
    assert.match(cardRow(billing, 'kind: Deployment', 'Node drain'), /1200 s starts crash-loop at 30 s/);
    assert.match(fixed(billing, 'probe-startup-missing'), /startupProbe:/);
  });

  it('3. How do we scale nodes down without dropping a live video call?', () => {
    const bridge = ask('video-bridge.yaml');
    const sessions = finding(bridge, 'sessions-lost-on-eviction', /keeps sessions in memory/);
    assert.ok(sessions.fixes.some((f) => /safe-to-evict/.test(f.title) || f.edits.some((e) => e.text.includes('safe-to-evict'))), 'a fix writes the safe-to-evict annotation');
    assert.match(cardRow(bridge, 'kind: Deployment', 'Node drain, scale-down'), /both pods may go at once/);
    assert.match(fixed(bridge, 'pdb-missing'), /kind: PodDisruptionBudget/);
  });

  it('4. Our health check fails when a dependency is down: should the pod be restarted? No: readiness, not liveness', () => {
    const billing = ask('billing.yaml');
    finding(billing, 'probe-liveness-equals-readiness', /when a dependency outage fails that check/);
    assert.match(cardRow(billing, 'kind: Deployment', 'Dependency down'), /liveness restarts all 3 pods after 30 s: a restart storm/);
    assert.match(fixed(billing, 'probe-liveness-equals-readiness'), /\/actuator\/health\/liveness/);
  });

  it('5. GPU pods: how do we keep the expensive pool at zero until a job needs it? A Job, not a Deployment (no automatic fix)', () => {
    const renderer = ask('gpu-renderer.yaml');
    const keeps = finding(renderer, 'gpu-keeps-nodes-up', /its GPU node never scales down\..*run it as a Job with ttlSecondsAfterFinished/);
    assert.deepEqual(keeps.fixes.filter((f) => f.preferred), [], 'turning a Deployment into a Job is the author\'s call');
    assert.match(cardRow(renderer, 'kind: Deployment', 'Node drain, scale-down'), /its only pod is evicted/);
  });

  it('6. What keeps kube-proxy and the kubelet reliable? Critical priority, every taint tolerated, spread DNS, reserved memory', () => {
    const agents = ask('node-agents.yaml');
    finding(agents, 'node-agent-priority', /^DaemonSet kube-system\/node-local-dns: memory pressure can evict it before the apps on its node\. DaemonSet kube-system\/node-local-dns has no priorityClassName.*Under node memory pressure the kubelet evicts pods above their requests first, lowest priority first/);
    finding(agents, 'node-agent-untolerated', /tolerates only CriticalAddonsOnly: nodes of a tainted pool .* run without it, and pods there get no node-local DNS caching/);
    finding(agents, 'dns-single-point', /runs 2 replicas and nothing spreads them across nodes/);
    finding(agents, 'kubelet-memory-unreserved', /^KubeletConfiguration reserves no memory for the kubelet and runtime: pods can starve them\./);
    finding(agents, 'kubelet-memory-eviction-off', /^KubeletConfiguration turns memory eviction off: the kubelet never evicts pods for memory\. It sets evictionHard .* without memory\.available: /);
    const card = hover(agents.text, 'kind: DaemonSet')!;
    assert.match(card, /\| Node failure \| only that node's pod is lost, until the node returns \|/);
    assert.match(card, /\nNode agent: node-local-dns \(node-local DNS caching\) · priority 0 · /);
    assert.match(fixed(agents, 'node-agent-priority'), /priorityClassName: system-node-critical/);
    assert.match(fixed(agents, 'node-agent-untolerated'), /- operator: Exists/);
    assert.match(fixed(agents, 'kubelet-memory-eviction-off'), /memory\.available: 100Mi/);
    assert.match(fixed(agents, 'dns-single-point'), /topologySpreadConstraints:/);
  });
});
