import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, it } from 'node:test';
import { Inventory } from '../../server/src/inventory/inventory';
import { findManifestFiles } from '../../server/src/inventory/manifest-files';
import { parseManifest } from '../../server/src/manifest/parse';
import { containersOf, describeContainer } from '../../server/src/manifest/workload';
import { annotationInvalid } from '../../server/src/rules/annotation-invalid';
import { analyzeFile } from '../../server/src/rules/engine';
import { probeLivenessChecksDependencies } from '../../server/src/rules/probe-liveness-checks-dependencies';
import { probePortUnknown } from '../../server/src/rules/probe-port-unknown';
import { probeReadinessMissing } from '../../server/src/rules/probe-readiness-missing';
import { probeStartupMissing } from '../../server/src/rules/probe-startup-missing';
import type { Finding } from '../../server/src/rules/types';

const CORPUS = '../shared/corpus';
const RULES = [probeLivenessChecksDependencies, probeReadinessMissing, probeStartupMissing, probePortUnknown, annotationInvalid];

/** Each corpus file analysed with the manifests of its own folder as the workspace (where its Services live). */
function analyseCorpus(): { findings: (Finding & { path: string })[]; files: number; ms: number } {
  const started = performance.now();
  const paths = findManifestFiles(CORPUS);
  const parsed = new Map(paths.map((path) => [path, parseManifest(`file://${path}`, readFileSync(path, 'utf8'))]));
  const findings: (Finding & { path: string })[] = [];
  for (const [path, file] of parsed) {
    const inventory = new Inventory();
    for (const [other, otherFile] of parsed) if (dirname(other) === dirname(path)) inventory.setFile(otherFile);
    for (const finding of analyzeFile(file, inventory, { rules: RULES })) findings.push({ ...finding, path });
  }
  return { findings, files: parsed.size, ms: performance.now() - started };
}

describe('health-check rules over the shared corpus', { skip: existsSync(CORPUS) ? false : `${CORPUS} is not present` }, () => {
  const { findings, files, ms } = existsSync(CORPUS) ? analyseCorpus() : { findings: [], files: 0, ms: 0 };
  const of = (ruleId: string) => findings.filter((f) => f.ruleId === ruleId);

  it(`analyses ${files} files in reasonable time`, () => {
    assert.ok(files > 100, 'the corpus has manifests');
    assert.ok(ms < 60_000, `took ${Math.round(ms)} ms`);
  });

  it('finds no unknown probe port and no invalid annotation in working manifests', () => {
    assert.deepEqual(of('probe-port-unknown').map((f) => `${f.path}: ${f.message}`), []);
    assert.deepEqual(of('annotation-invalid').map((f) => `${f.path}: ${f.message}`), []);
  });

  it('asks no readiness probe of batch pods, node agents or sidecar proxies', () => {
    const wrong = of('probe-readiness-missing').filter((f) => ['Job', 'CronJob', 'DaemonSet'].includes(f.resource!.kind) || /kube-rbac-proxy|config-reload/.test(f.message));
    assert.deepEqual(wrong.map((f) => `${f.path}: ${f.message}`), []);
  });

  it('every readiness finding names the container and why it serves traffic', () => {
    assert.ok(of('probe-readiness-missing').length > 0, 'the corpus has serving containers without readiness');
    for (const f of of('probe-readiness-missing')) assert.match(f.message, /^\S+ \S+(, container \S+)?: no readiness probe: traffic comes before it is ready\. (Service \S+ sends it traffic|It declares port)/);
  });

  it('a fix is only offered when a probe can be derived from a declared port', () => {
    for (const f of of('probe-readiness-missing')) {
      const file = parseManifest(`file://${f.path}`, readFileSync(f.path, 'utf8'));
      const container = file.resources.flatMap((r) => containersOf(r).filter((c) => f.message.startsWith(`${describeContainer(r, c.name)}:`)))[0];
      const hasPort = Array.isArray(container?.container.ports) && container!.container.ports.length > 0;
      assert.equal(f.fixes.some((x) => x.preferred), hasPort, `${f.path}: ${f.message}`);
    }
  });
});
