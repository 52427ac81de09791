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
