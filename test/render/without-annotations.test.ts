import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { parseManifest } from '../../server/src/manifest/parse';
import { withoutAnnotations } from '../../server/src/render/without-annotations';

const NAMES = ['config.kubernetes.io/origin', 'alpha.config.kubernetes.io/transformations'];

function strip(text: string): string {
  // Second in its file, after a marker of its own: the edits are of the file's text, the answer is the document's.
  const opened = text.startsWith('---\n') ? text : `---\n${text}`;
  const stripped = withoutAnnotations(parseManifest('file:///rendered.yaml', `kind: ConfigMap\n${opened}`), 1, NAMES);
  return opened === text ? stripped : stripped.replace(/^---\n/, '');
}

describe('withoutAnnotations', () => {
  it('cuts the named annotations out line by line, block scalars whole, and leaves every other byte as written', () => {
    const text = `---
apiVersion: apps/v1
kind: Deployment
metadata:
  annotations:
    alpha.config.kubernetes.io/transformations: |
      - configuredIn: ../base/kustomization.yaml
        configuredBy:
          kind: PatchTransformer
    team: "payments"   # kept
    config.kubernetes.io/origin: |
      path: ../base/deployment.yaml
  name: web
spec:
  containers:
  - name: web
`;
    assert.equal(
      strip(text),
      `---
apiVersion: apps/v1
kind: Deployment
metadata:
  annotations:
    team: "payments"   # kept
  name: web
spec:
  containers:
  - name: web
`,
    );
  });

  it('takes the annotations key out with them when nothing else is under it', () => {
    const text = `kind: Service
metadata:
  labels:
    app: web
  annotations:
    config.kubernetes.io/origin: "path: svc.yaml"
  name: web
`;
    assert.equal(strip(text), 'kind: Service\nmetadata:\n  labels:\n    app: web\n  name: web\n');
  });

  it('has the yaml package write the document again where the annotations are a flow mapping', () => {
    const text = `kind: Service
metadata: {name: web, annotations: {config.kubernetes.io/origin: "path: svc.yaml", team: payments}}
`;
    assert.deepEqual(parse(strip(text)), { kind: 'Service', metadata: { name: 'web', annotations: { team: 'payments' } } });
    // Both, side by side, before another: removed one by one in place, the two would overlap.
    const both = 'kind: Service\nmetadata: {name: web, annotations: {config.kubernetes.io/origin: a, alpha.config.kubernetes.io/transformations: b, team: c}}\n';
    assert.deepEqual(parse(strip(both)), { kind: 'Service', metadata: { name: 'web', annotations: { team: 'c' } } });
  });

  it('leaves an empty metadata mapping, not a null one, when the annotations were all it held', () => {
    const text = `kind: Namespace
metadata:
  annotations:
    config.kubernetes.io/origin: |
      path: ns.yaml
`;
    assert.deepEqual(parse(strip(text)), { kind: 'Namespace', metadata: {} });
  });

  it('returns the text itself when it has none of the named annotations', () => {
    const text = 'kind: Service\nmetadata:\n  annotations:\n    team: payments\n  name: web\n';
    assert.equal(strip(text), text);
  });
});
