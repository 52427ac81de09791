import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Connection, TextDocuments } from 'vscode-languageserver/node';
import { Inventory } from '../../server/src/inventory/inventory';
import { openDocuments, type OpenDocument } from '../../server/src/language/open-document';
import { Validation, type ValidationHost } from '../../server/src/language/validation';
import { parseManifest } from '../../server/src/manifest/parse';

const URI = 'file:///work/app.yaml';

const deployment = (replicas: number) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: ${replicas}
  selector:
    matchLabels: { app: web }
  template:
    metadata:
      labels: { app: web }
    spec:
      containers:
        - name: web
          image: nginx:1.27
`;

/** A validation of one open document, with what the server gives it: the document, an inventory, the defaults. */
function validationOf(text: string) {
  const doc = openDocuments.create(URI, 'yaml', 1, text);
  const inventory = new Inventory();
  const documents = { get: (uri: string) => (uri === URI ? doc : undefined), all: () => [doc] } as unknown as TextDocuments<OpenDocument>;
  let published = 0;
  const host: ValidationHost = {
    connection: { sendDiagnostics: async () => void published++ } as unknown as Connection,
    documents,
    inventory,
    enabled: () => true,
    severities: () => ({}),
    cluster: () => undefined,
    isManifest: () => true,
    diskUri: (uri) => uri,
    docsHref: () => undefined,
    worked: () => undefined,
  };
  const validation = new Validation(host);
  const type = (next: string) => openDocuments.update(doc, [{ text: next }], doc.version + 1);
  return { validation, inventory, type, published: () => published };
}

/** An open document with one replica, validated, then Fix all's parse of it with two handed over. */
async function handedOver() {
  const opened = validationOf(deployment(1));
  const findings = await opened.validation.findings(URI);
  const fixed = parseManifest(URI, deployment(2));
  opened.validation.fixedTo(fixed);
  return { ...opened, findings, fixed };
}

describe('Validation', () => {
  describe('the parse Fix all hands over for the text its edit makes', () => {
    it('is the file the document is validated as once the document holds that text', async () => {
      const { validation, inventory, type, fixed } = await handedOver();
      type(deployment(2));
      await validation.findings(URI);
      assert.equal(inventory.getFile(URI), fixed);
    });

    it('is not taken when the document holds another text (the edit was not applied, or typing came first)', async () => {
      const { validation, inventory, type, fixed, findings: opened } = await handedOver();
      type(deployment(3));
      const findings = await validation.findings(URI);
      assert.notEqual(inventory.getFile(URI), fixed);
      assert.equal(inventory.getFile(URI)?.text, deployment(3));
      assert.ok(opened.some((f) => f.ruleId === 'single-replica'), 'one replica, as opened');
      assert.ok(!findings.some((f) => f.ruleId === 'single-replica'), 'three replicas, as typed');
    });

    it('is taken once: the next validation of that text parses what the document holds', async () => {
      const { validation, inventory, type, fixed } = await handedOver();
      type(deployment(3));
      await validation.findings(URI);
      type(deployment(2));
      await validation.findings(URI);
      assert.notEqual(inventory.getFile(URI), fixed);
      assert.equal(inventory.getFile(URI)?.text, deployment(2));
    });

    it('is dropped when its document closes', async () => {
      const { validation, inventory, type, fixed } = await handedOver();
      validation.closed(URI);
      type(deployment(2));
      await validation.findings(URI);
      assert.notEqual(inventory.getFile(URI), fixed);
    });
  });

  describe('a request for the findings of a document whose validation waits (typing has not paused)', () => {

    it('runs that validation for it, once: the document is not analysed again when the wait would have ended', async () => {
      const { validation, inventory, type } = validationOf(deployment(1));
      await validation.findings(URI);
      let parsesPut = 0;
      const setFile = inventory.setFile.bind(inventory);
      inventory.setFile = (file) => (parsesPut++, setFile(file));
      type(deployment(3));
      validation.schedule(URI);
      const findings = await validation.findings(URI);
      assert.ok(!findings.some((f) => f.ruleId === 'single-replica'), 'the findings of what was typed');
      await settled();
      assert.equal(parsesPut, 1);
    });

    it('lets other work through while a large edit is validated in slices, and answers once it ends', async () => {
      assert.ok(many(1).length > 256 * 1024, 'past the size validated in slices');
      const { validation, type } = validationOf(many(1));
      await validation.findings(URI);
      type(many(3));
      validation.schedule(URI);
      const { order, findings } = await askedBesideOtherWork(validation);
      assert.deepEqual(order, ['other work', 'findings']);
      assert.ok(!findings.some((f) => f.ruleId === 'single-replica'), 'the findings of the edit');
      await settled();
    });
  });

  describe('a request for the findings of a large edit no validation waits for (validated on save)', () => {
    it('computes them in slices, letting other work through, and sends nothing until a validation is asked', async () => {
      const { validation, type, published } = validationOf(many(1));
      await validation.findings(URI);
      type(many(3));
      const { order, findings } = await askedBesideOtherWork(validation);
      assert.deepEqual(order, ['other work', 'findings']);
      assert.ok(!findings.some((f) => f.ruleId === 'single-replica'), 'the findings of the edit');
      assert.equal(published(), 0, 'nothing is sent for a request');
      validation.schedule(URI, 0);
      await settled();
      assert.equal(published(), 1, 'the validation on save sends them');
    });
  });
});

function settled(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 400));
}

/** 1,100 Deployments of `replicas`, past the size validated in slices. */
function many(replicas: number): string {
  return Array.from({ length: 1_100 }, (_, i) => deployment(replicas).replace('name: web', `name: web-${i}`)).join('---\n');
}

/** The document's findings asked for, with other work scheduled right after the request: which came first. */
async function askedBesideOtherWork(validation: Validation) {
  const order: string[] = [];
  const answered = validation.findings(URI).then((findings) => (order.push('findings'), findings));
  setImmediate(() => order.push('other work'));
  const findings = await answered;
  return { order, findings };
}
