import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { spawnSync } from 'node:child_process';
import { join as joinPath } from 'node:path';
import { Inventory } from '../../server/src/inventory/inventory';
import { parseManifest, type ManifestFile } from '../../server/src/manifest/parse';
import { analyzeFile, ownFixesOf } from '../../server/src/rules/engine';
import { IncrementalAnalysis } from '../../server/src/rules/incremental';
import type { Finding } from '../../server/src/rules/types';
import { MEASURED_KEYSTROKES } from './typing-scavenges';
import { pausesOf } from '../steps';

/** A small seeded random stream, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const pick = <T>(next: () => number, list: readonly T[]): T => list[Math.floor(next() * list.length)];

function deployment(next: () => number): string {
  const app = pick(next, ['web', 'api', 'db']);
  const replicas = pick(next, [1, 2, 3]);
  const comment = next() < 0.2 ? '# kube-resilience-ignore single-replica -- accepted\n' : '';
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${app}-${Math.floor(next() * 3)}
  namespace: ${pick(next, ['shop', 'default'])}
${comment}spec:
  replicas: ${replicas}
  selector:
    matchLabels: {app: ${app}}
  template:
    metadata:
      labels: {app: ${app}}
    spec:
      containers:
        - name: app
          image: registry.example/${app}:1
          ports: [{name: http, containerPort: 8080}]
          livenessProbe: {httpGet: {path: /live, port: http}}
`;
}

const others: ((next: () => number) => string)[] = [
  (next) => `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: pdb-${Math.floor(next() * 3)}, namespace: ${pick(next, ['shop', 'default'])}}
spec:
  ${pick(next, ['minAvailable: 1', 'maxUnavailable: 0', 'minAvailable: 100%'])}
  selector: {matchLabels: {app: ${pick(next, ['web', 'api', 'db'])}}}
`,
  (next) => `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: hpa, namespace: ${pick(next, ['shop', 'default'])}}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: ${pick(next, ['web', 'api'])}-${Math.floor(next() * 3)}}
  minReplicas: ${pick(next, [1, 2])}
  maxReplicas: 5
`,
  (next) => `apiVersion: v1
kind: Service
metadata: {name: svc, namespace: ${pick(next, ['shop', 'default'])}}
spec:
  selector: {app: ${pick(next, ['web', 'api'])}}
  ports: [{port: 80, targetPort: http}]
`,
  () => `apiVersion: v1
kind: ConfigMap
metadata: {name: settings}
data: {a: "1"}
`,
  () => `apiVersion: v1
kind: ConfigMap
metadata: {name: broken
data: [
`,
];

function randomDocument(next: () => number): string {
  return next() < 0.5 ? deployment(next) : pick(next, others)(next);
}

function randomFile(next: () => number, documents: number): string[] {
  return Array.from({ length: documents }, () => randomDocument(next));
}

function join(documents: string[]): string {
  return documents.map((d) => `---\n${d}`).join('');
}

/** One random edit: replace, insert or remove a document, add lines above one, or change one character. */
function edit(next: () => number, documents: string[]): string[] {
  const out = [...documents];
  const at = Math.floor(next() * out.length);
  const choice = next();
  if (choice < 0.25) out[at] = randomDocument(next);
  else if (choice < 0.4) out.splice(at, 0, randomDocument(next));
  else if (choice < 0.5 && out.length > 1) out.splice(at, 1);
  else if (choice < 0.7) out[at] = `# a comment\n\n${out[at]}`;
  else {
    const text = out[at];
    const i = Math.floor(next() * text.length);
    out[at] = text.slice(0, i) + pick(next, ['a', '1', ' ', ':', '\n', '']) + text.slice(i + 1);
  }
  return out;
}

/** What a person sees of a finding, fixes included, and the field it is about (a chart's fix is placed by it). */
function shown(findings: Finding[]): unknown[] {
  return findings.map((f) => ({
    ruleId: f.ruleId,
    severity: f.severity,
    message: f.message,
    uri: f.uri,
    range: f.range,
    fieldPath: f.fieldPath,
    related: f.related,
    fixes: f.fixes.map((x) => ({ title: x.title, edits: x.edits })),
  }));
}

/** A Deployment of one replica, with findings that have fixes. */
function webDeployment(name: string): string {
  return `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: ${name}}\nspec:\n  replicas: 1\n  selector: {matchLabels: {app: ${name}}}\n  template:\n    metadata: {labels: {app: ${name}}}\n    spec: {containers: [{name: app, image: x}]}\n`;
}

/** A Deployment in namespace a with three replicas, and its PDB. */
const pair = (name: string) =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: ${name}, namespace: a}\nspec:\n  replicas: 3\n  selector: {matchLabels: {app: ${name}}}\n  template:\n    metadata: {labels: {app: ${name}}}\n    spec: {containers: [{name: app, image: x}]}\n---\n` +
  `apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: ${name}, namespace: a}\nspec:\n  maxUnavailable: 1\n  selector: {matchLabels: {app: ${name}}}\n`;

/** Analyses `before`, then `after` as an edit of it: how many documents the edit analysed again, and what it found. */
function analyseEdit(before: string[], after: string[]) {
  const inventory = new Inventory();
  const analysis = new IncrementalAnalysis();
  const first = parseManifest('mine.yaml', join(before));
  inventory.setFile(first);
  analysis.analyze(first, inventory);
  const analysed = analysis.analysedDocuments;
  const file = parseManifest('mine.yaml', join(after), first);
  inventory.setFile(file);
  const findings = analysis.analyze(file, inventory);
  return { analysed: analysis.analysedDocuments - analysed, findings, inventory, file };
}

/** Counts the calls of one method of an object from now on. */
function countCalls<T extends object>(target: T, method: keyof T & string): () => number {
  let calls = 0;
  const original = (target[method] as (...args: unknown[]) => unknown).bind(target);
  Object.assign(target, { [method]: (...args: unknown[]) => (calls++, original(...args)) });
  return () => calls;
}

describe('incremental analysis', () => {
  it('gives after every random edit exactly what analysing the whole file from scratch gives, fixes included', () => {
    for (let seed = 1; seed <= 12; seed++) {
      const next = random(seed);
      const inventory = new Inventory();
      const analysis = new IncrementalAnalysis();
      let mine = randomFile(next, 6);
      let theirs = randomFile(next, 3);
      let file: ManifestFile | undefined;
      inventory.setFile(parseManifest('other.yaml', join(theirs)));
      for (let step = 0; step < 25; step++) {
        mine = edit(next, mine);
        // Another file changes now and then: relations across files count too.
        if (next() < 0.3) {
          theirs = edit(next, theirs);
          inventory.setFile(parseManifest('other.yaml', join(theirs), inventory.getFile('other.yaml')));
        }
        file = parseManifest('mine.yaml', join(mine), file);
        inventory.setFile(file);
        const incremental = analysis.analyze(file, inventory);
        const scratch = new Inventory();
        scratch.setFile(parseManifest('other.yaml', join(theirs)));
        const fresh = parseManifest('mine.yaml', join(mine));
        scratch.setFile(fresh);
        assert.deepEqual(shown(incremental), shown(analyzeFile(fresh, scratch)), `seed ${seed}, step ${step}`);
      }
    }
  });

  it('a fork on a scratch inventory reuses what the analysis did, and after random edits there gives what a fresh analysis gives', () => {
    for (let seed = 21; seed <= 26; seed++) {
      const next = random(seed);
      const inventory = new Inventory();
      inventory.setFile(parseManifest('other.yaml', join(randomFile(next, 3))));
      let mine = randomFile(next, 8);
      const original = join(mine);
      let file = parseManifest('mine.yaml', original);
      inventory.setFile(file);
      const analysis = new IncrementalAnalysis();
      const before = shown(analysis.analyze(file, inventory));
      const scratch = inventory.scratch();
      const fork = analysis.forkFor('mine.yaml', scratch);
      assert.deepEqual(shown(fork.analyze(file, scratch)), before, `seed ${seed}: the same findings and fixes`);
      assert.equal(fork.analysedDocuments, 0, `seed ${seed}: nothing changed, nothing is analysed again`);
      for (let step = 0; step < 10; step++) {
        mine = edit(next, mine);
        file = parseManifest('mine.yaml', join(mine), file);
        scratch.setFile(file);
        const forked = fork.analyze(file, scratch);
        const fresh = new Inventory();
        for (const other of scratch.allFiles()) fresh.setFile(parseManifest(other.uri, other.text));
        assert.deepEqual(shown(forked), shown(analyzeFile(fresh.getFile('mine.yaml')!, fresh)), `seed ${seed}, step ${step}`);
      }
      assert.equal(inventory.getFile('mine.yaml')?.text, original, 'the inventory itself is untouched');
      assert.deepEqual(shown(analysis.analyze(inventory.getFile('mine.yaml')!, inventory)), before, 'and so are its findings and their fixes');
    }
  });

  it('analyses only the edited document when nothing else depends on it', () => {
    const next = random(7);
    const documents = [...randomFile(next, 20), 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: edited}\ndata: {a: "1"}\n'];
    const edited = [...documents.slice(0, -1), documents[documents.length - 1].replace('"1"', '"2"')];
    assert.equal(analyseEdit(documents, edited).analysed, 1);
  });

  it('a document added above moves the others without analysing them again, but for one that does not parse: its message counts documents', () => {
    const documents = [...Array.from({ length: 20 }, (_, i) => webDeployment(`web-${i}`)), 'a: [1\n'];
    const { analysed, findings } = analyseEdit(documents, ['# notes\n', ...documents]);
    assert.equal(analysed, 2, 'the new document and the one that does not parse');
    assert.ok(findings.some((f) => f.message.startsWith(`Document ${documents.length + 1} does not parse`)));
  });

  it('computes the fixes of the findings it reused on the file as it is, analysing their document once for all of them', () => {
    const { analysed, findings, inventory, file } = analyseEdit(['# v1\n', webDeployment('web')], ['# v2\n', webDeployment('web')]);
    assert.equal(analysed, 1, 'the Deployment is reused');
    const analyses = countCalls(inventory, 'recordReads');
    assert.ok(findings.filter((f) => f.fixes.length > 0).length > 1, 'the Deployment has several findings with fixes');
    for (const finding of findings) void finding.fixes;
    assert.equal(analyses(), 1);
    const fresh = new Inventory();
    fresh.setFile(parseManifest('mine.yaml', file.text));
    assert.deepEqual(shown(findings), shown(analyzeFile(fresh.getFile('mine.yaml')!, fresh)), 'fixes of the new text');
  });

  it("gives the rule's own fixes of the findings it reused on the file as it is, without the ignore actions", () => {
    const ownFixes = (findings: Finding[]) => findings.map((f) => ownFixesOf(f).map((x) => ({ title: x.title, edits: x.edits })));
    // A longer first line moves the Deployment's text but not its lines; a line added moves both.
    for (const above of ['# version 2\n', '# v2\n# notes\n']) {
      const { analysed, findings, file } = analyseEdit(['# v1\n', webDeployment('web')], [above, webDeployment('web')]);
      assert.equal(analysed, 1, 'the Deployment is reused');
      const fresh = new Inventory();
      fresh.setFile(parseManifest('mine.yaml', file.text));
      const expected = ownFixes(analyzeFile(fresh.getFile('mine.yaml')!, fresh));
      assert.ok(expected.some((fixes) => fixes.length > 0) && expected.flat().every((fix) => !fix.title.startsWith('Ignore')));
      assert.deepEqual(ownFixes(findings), expected, above);
    }
  });

  it('analyses again the Deployments a new PodDisruptionBudget selects by their pod labels, and only the edited document besides', () => {
    const deploymentIn = (namespace: string, name: string) =>
      `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: ${name}, namespace: ${namespace}}\nspec:\n  replicas: 3\n  selector: {matchLabels: {app: ${name}}}\n  template:\n    metadata: {labels: {app: ${name}}}\n    spec: {containers: [{name: app, image: x}]}\n`;
    const documents = [deploymentIn('a', 'one'), deploymentIn('a', 'two'), deploymentIn('b', 'three'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: a}\n'];
    const inventory = new Inventory();
    const analysis = new IncrementalAnalysis();
    let file = parseManifest('mine.yaml', join(documents));
    inventory.setFile(file);
    const before = analysis.analyze(file, inventory).filter((f) => f.ruleId === 'pdb-missing').length;
    documents[3] = 'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: p, namespace: a}\nspec:\n  maxUnavailable: 1\n  selector: {matchLabels: {app: one}}\n';
    const analysed = analysis.analysedDocuments;
    file = parseManifest('mine.yaml', join(documents), file);
    inventory.setFile(file);
    const after = analysis.analyze(file, inventory).filter((f) => f.ruleId === 'pdb-missing').length;
    assert.equal(after, before - 1);
    assert.equal(analysis.analysedDocuments - analysed, 2, 'the Deployment whose pods carry app: one, and the PDB');
  });

  it('analyses a Deployment again when a PDB takes or leaves the name its fix would give a new one, and not when another PDB of its namespace changes', () => {
    const web = 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: a}\nspec:\n  replicas: 3\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: app, image: x}]}\n';
    const otherPdb = (name: string) => `apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: ${name}, namespace: a}\nspec:\n  maxUnavailable: 1\n  selector: {matchLabels: {app: legacy}}\n`;
    const inventory = new Inventory();
    const analysis = new IncrementalAnalysis();
    const mine = parseManifest('file:///project/web.yaml', web);
    inventory.setFile(mine);
    const pdbTitle = () => ownFixesOf(analysis.analyze(mine, inventory).find((f) => f.ruleId === 'pdb-missing')!)[0].title;
    assert.equal(pdbTitle(), 'Add a PodDisruptionBudget web-pdb (maxUnavailable: 1)');
    const changed = (text: string) => {
      inventory.setFile(parseManifest('file:///project/legacy.yaml', text));
      const analysed = analysis.analysedDocuments;
      const title = pdbTitle();
      return { title, analysedAgain: analysis.analysedDocuments - analysed };
    };
    assert.deepEqual(changed(otherPdb('legacy-pdb')), { title: 'Add a PodDisruptionBudget web-pdb (maxUnavailable: 1)', analysedAgain: 0 });
    assert.deepEqual(changed(otherPdb('web-pdb')), { title: 'Add a PodDisruptionBudget web-pdb-2 (maxUnavailable: 1)', analysedAgain: 1 });
    assert.deepEqual(changed(otherPdb('legacy-pdb')), { title: 'Add a PodDisruptionBudget web-pdb (maxUnavailable: 1)', analysedAgain: 1 });
  });

  it('a keystroke in a Deployment analyses again the PDBs that may select its pods, not every PDB of its namespace', () => {
    const documents = Array.from({ length: 20 }, (_, i) => pair(`w${i}`));
    const inventory = new Inventory();
    const analysis = new IncrementalAnalysis();
    let file = parseManifest('mine.yaml', join(documents));
    inventory.setFile(file);
    analysis.analyze(file, inventory);
    const edit = (text: string) => {
      const analysed = analysis.analysedDocuments;
      documents[7] = text;
      file = parseManifest('mine.yaml', join(documents), file);
      inventory.setFile(file);
      const findings = analysis.analyze(file, inventory);
      const fresh = new Inventory();
      const whole = parseManifest('mine.yaml', join(documents));
      fresh.setFile(whole);
      assert.deepEqual(shown(findings), shown(analyzeFile(whole, fresh)));
      return analysis.analysedDocuments - analysed;
    };
    assert.equal(edit(pair('w7').replace('image: x', 'image: y')), 2, 'the Deployment and its PDB');
    assert.equal(edit(pair('w7').replace('template:\n    metadata: {labels: {app: w7}}', 'template:\n    metadata: {labels: {app: w3}}')), 3, 'its PDB, and the PDB of the label its pods carry now');
  });

  it('a new PDB by template labels analyses again the Deployment it selects and not the other PDBs of its namespace; one by a pod name, every PDB there', () => {
    const pdb = (name: string, labels: string) => `apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: ${name}, namespace: a}\nspec:\n  maxUnavailable: 1\n  selector: {matchLabels: {${labels}}}\n`;
    const pairs = Array.from({ length: 20 }, (_, i) => pair(`w${i}`));
    const byTemplate = analyseEdit(pairs, [...pairs, pdb('extra', 'app: w3')]);
    assert.equal(byTemplate.analysed, 3, 'the new PDB, the Deployment it selects, and the PDB that selects it too');
    assert.equal(byTemplate.findings.filter((f) => f.ruleId === 'pdb-multiple').length, 2);
    const byPodName = analyseEdit(pairs, [...pairs, pdb('one-pod', 'statefulset.kubernetes.io/pod-name: w3-0')]);
    assert.equal(byPodName.analysed, 21, 'the new PDB and the 20 others, each of which it may meet on a pod');
  });

  it('in a file of more documents than one pause reuses, an edit at either side of a pause gives what a fresh analysis gives', () => {
    const documents = randomFile(random(31), 1_203);
    for (const at of [0, 499, 500, 501, 999, 1_000, 1_202]) {
      const edited = [...documents];
      edited[at] = `# edited\n${edited[at].replace('replicas: 1', 'replicas: 2')}`;
      const { findings } = analyseEdit(documents, edited);
      const fresh = new Inventory();
      fresh.setFile(parseManifest('mine.yaml', join(edited)));
      assert.deepEqual(shown(findings), shown(analyzeFile(fresh.getFile('mine.yaml')!, fresh)), `edit of document ${at}`);
    }
  });

  it('pauses after each document it analyses, and when it reaches document 500, 1,000, … by reusing', () => {
    const documents = Array.from({ length: 1_203 }, (_, i) => `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings-${i}}\ndata: {a: "1"}\n`);
    // Edited at 499, the pause after analysing it is the one at 500.
    for (const [at, expected] of [[0, 3], [499, 2], [500, 3], [1_202, 3]]) {
      const edited = documents.map((d, i) => (i === at ? d.replace('"1"', '"2"') : d));
      const inventory = new Inventory();
      const analysis = new IncrementalAnalysis();
      const first = parseManifest('mine.yaml', join(documents));
      inventory.setFile(first);
      analysis.analyze(first, inventory);
      const file = parseManifest('mine.yaml', join(edited), first);
      inventory.setFile(file);
      const { pauses } = pausesOf(analysis.analyzeInSteps(file, inventory));
      assert.equal(analysis.analysedDocuments, 1_204, `edit of document ${at}: the edited document alone is analysed again`);
      assert.equal(pauses, expected, `edit of document ${at}`);
    }
  });

  it('typing keeps no earlier version of the file alive through the young generation\'s collections', () => {
    // A version held by a dead object of the old generation (a getter's accessor pair, a cleared Map's table)
    // outlives a scavenge all the same, and the next one promotes it: every version typed since would be.
    const run = spawnSync(process.execPath, ['--trace-gc-nvp', '--import', 'tsx', joinPath(__dirname, 'typing-scavenges.ts')], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    // After the full collection that ends the warm-up.
    const measured = run.stdout.slice(run.stdout.lastIndexOf(' gc=mc ')).split('\n');
    const promoted = measured.filter((line) => line.includes(' gc=s ')).map((line) => Number(/ promoted=(\d+)/.exec(line)?.[1]));
    assert.ok(promoted.length >= 3, `${promoted.length} scavenges in ${MEASURED_KEYSTROKES} keystrokes: too few to tell`);
    const perScavenge = promoted.reduce((sum, bytes) => sum + bytes, 0) / promoted.length;
    assert.ok(perScavenge < 1e6, `${(perScavenge / 1e6).toFixed(1)} MB promoted per scavenge, ${promoted.length} scavenges`);
  });
});
