import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { completionsAt } from '../../server/src/explain/completion';
import { hoverAt } from '../../server/src/explain/hover';
import { Inventory } from '../../server/src/inventory/inventory';
import { parseManifest } from '../../server/src/manifest/parse';
import { analyzeFile } from '../../server/src/rules/engine';
import { RULES } from '../../server/src/rules/index';

const POD_SPECS = [
  'containers: null',
  'containers: [null, 1, "a"]',
  'containers: [{name: a, livenessProbe: "x", readinessProbe: 5, startupProbe: []}]',
  'containers: [{name: a, ports: [null, {containerPort: "80"}, {name: 5}], livenessProbe: {httpGet: {path: 5, port: {a: 1}}}, readinessProbe: {tcpSocket: null}}]',
  'containers: [{name: a, image: 5, livenessProbe: {exec: {command: "ls"}, initialDelaySeconds: "x"}}]',
  'tolerations: [null, {key: node.kubernetes.io/unreachable, tolerationSeconds: "x"}]\n      volumes: [null, 5]\n      containers: [{name: a, lifecycle: 5}]',
];
const METADATA = ['annotations: "x"', 'annotations: {kube-resilience/ignore: null, kube-resilience/sessions: [1], kube-resilience/startup-seconds: {a: 1}}'];

describe('hovers, completion and the health-check rules on malformed manifests', () => {
  for (const podSpec of POD_SPECS) {
    for (const metadata of METADATA) {
      it(`answer without errors: ${podSpec.split('\n')[0]} / ${metadata}`, () => {
        const text = `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: w\n  ${metadata}\nspec:\n  replicas: "x"\n  selector: {matchLabels: {app: w}}\n  template:\n    metadata: {labels: {app: w}, annotations: [1]}\n    spec:\n      ${podSpec}\n---\napiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec: {selector: {app: w}, ports: [null, {port: x, targetPort: {a: 1}}]}\n`;
        const inventory = new Inventory();
        const file = parseManifest('file:///malformed.yaml', text);
        inventory.setFile(file);
        const findings = analyzeFile(file, inventory);
        assert.deepEqual(findings.filter((f) => f.message.startsWith('Internal error')).map((f) => f.message), []);
        for (let line = 0; line < file.lines.lineCount; line++) {
          for (const character of [0, 2, 4, 8]) {
            hoverAt(file, { line, character }, inventory, findings);
            completionsAt(file.lines, { line, character }, RULES.map((r) => r.meta));
          }
        }
        assert.ok(hoverAt(file, { line: 1, character: 2 }, inventory, findings)?.text.includes('| Failure | What happens |'), 'the card still shows');
      });
    }
  }
});

describe('hovers on names and values that mean something in Markdown', () => {
  const hostile = 'a*b_c`d<img src=x>[run](command:kubeResilience.simulateWorkload)|x';
  const text = `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: "${hostile}"\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: w}}\n  template:\n    metadata: {labels: {app: w}}\n    spec:\n      containers:\n        - name: "x|y*z*"\n          image: a\n          readinessProbe:\n            exec:\n              command: [sh, -c, "test -f /tmp/*ready* && echo <script>x</script> | grep \`x\` [y](command:z)"]\n        - name: "p|q"\n          image: b\n`;
  const inventory = new Inventory();
  const file = parseManifest('file:///hostile.yaml', text);
  inventory.setFile(file);
  const findings = analyzeFile(file, inventory);
  /** What Markdown would read as markup: an unescaped character among those that make links, HTML, code, emphasis and table cells. */
  const unescaped = (markdown: string, char: string) => [...markdown.matchAll(new RegExp(`\\\\?\\${char}`, 'g'))].filter((m) => !m[0].startsWith('\\')).length;

  it('shows them as written: no link, HTML, code span, emphasis or table column of theirs (a name planted a trusted command link)', () => {
    const card = hoverAt(file, { line: 1, character: 2 }, inventory, findings, undefined, { drainLinks: true })!.text;
    const probe = hoverAt(file, file.lines.position(text.indexOf('readinessProbe')), inventory, findings, undefined, { drainLinks: true })!.text;
    for (const markdown of [card, probe]) {
      assert.doesNotMatch(markdown, /(?<!\\)<(img|script)|\]\(command:(z|kubeResilience\.simulateWorkload\))/);
      // The lines that show them open no code span (the card's own, around rule ids, are elsewhere).
      for (const line of markdown.split('\n').filter((l) => /a\\\*b|x\\\|y|exec sh/.test(l))) assert.equal(unescaped(line.replace(/\(command:[^ ]*/, ''), '`'), 0, line);
    }
    assert.match(card, /a\\\*b\\_c\\`d\\<img src=x\\>\\\[run\\\]\\\(command:kubeResilience\.simulateWorkload\\\)\\\|x/);
    // The drain link's arguments are the name as written, and no `)` of it ends the link early.
    const link = /\]\(command:kubeResilience\.simulateWorkload\?([^ )]*) "/.exec(card);
    assert.ok(link, card);
    assert.equal(JSON.parse(decodeURIComponent(link[1]))[0].name, hostile);
    // The table keeps its two columns: each row has its three unescaped pipes.
    for (const row of card.split('\n').filter((line) => line.startsWith('| '))) assert.equal(unescaped(row, '|'), 3, row);
  });
});

describe('the posture lines on settings that mean something in Markdown', () => {
  const link = '[Click](command:kubeResilience.simulateWorkload?%5B%5D)';
  const cardOf = (text: string) => {
    const inventory = new Inventory();
    const file = parseManifest('file:///hostile.yaml', text);
    inventory.setFile(file);
    return hoverAt(file, { line: 1, character: 2 }, inventory, analyzeFile(file, inventory))!.text;
  };
  const posture = (card: string) => card.split('\n').filter((line) => /^(Posture|Node agent):/.test(line)).join('\n');

  it('shows a topology key, a DaemonSet\'s rollout settings and its priority class as written (each planted a trusted command link)', () => {
    const deployment = `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: w}\nspec:\n  replicas: 3\n  selector: {matchLabels: {app: w}}\n  template:\n    metadata: {labels: {app: w}}\n    spec:\n      topologySpreadConstraints: [{maxSkew: 1, topologyKey: "x/${link}", whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: w}}}]\n      containers: [{name: a, image: a}]\n`;
    const daemonSet = `apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: d, namespace: kube-system}\nspec:\n  selector: {matchLabels: {app: d}}\n  updateStrategy: {rollingUpdate: {maxUnavailable: "<img src=x> ${link}", maxSurge: "![px](https://attacker.example/p.png)"}}\n  template:\n    metadata: {labels: {app: d}}\n    spec:\n      priorityClassName: "${link}"\n      containers: [{name: a, image: a}]\n`;
    for (const text of [deployment, daemonSet]) {
      const lines = posture(cardOf(text));
      assert.ok(lines, 'the card has its posture line');
      assert.doesNotMatch(lines, /(?<!\\)\]\(|(?<!\\)<img/, lines);
    }
    assert.match(posture(cardOf(deployment)), /spread by \\\[Click\\\]/);
    assert.match(posture(cardOf(daemonSet)), /priority \\\[Click\\\]/);
  });
});
