import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fixFile } from '../../server/src/fixes/apply';
import { singlePrimaryStore } from '../../server/src/fixes/safety';
import { Inventory } from '../../server/src/inventory/inventory';
import { findManifestFiles } from '../../server/src/inventory/manifest-files';
import { FIELDS_NOT_IN } from '../../server/src/manifest/api-fields';
import { parseManifest, type Resource } from '../../server/src/manifest/parse';
import { valueAt } from '../../server/src/manifest/workload';
import { gpuRequests } from '../../server/src/rules/gpu-resources';

// Real manifests written by others, next to the repository (or where KUBE_RESILIENCE_CORPUS says); the suite stays green without them. Fixed in memory only.
const CORPUS = process.env.KUBE_RESILIENCE_CORPUS ?? join('..', 'shared', 'corpus');

const key = (r: Resource) => `${r.kind}|${r.namespace}|${r.name}`;

/** Why more replicas of this workload would change what it does, as a careful reviewer sees it; undefined for a plain one. */
function mustKeepItsCount(workload: Resource): string | undefined {
  if (workload.kind === 'StatefulSet') return 'a StatefulSet';
  const store = singlePrimaryStore(workload);
  if (store) return `a ${store.name} image`;
  if (gpuRequests(workload).length) return 'a GPU workload';
  return undefined;
}

describe('check --fix on the corpus applies safe fixes only', { skip: existsSync(CORPUS) ? false : `no corpus at ${CORPUS}: skipped` }, () => {
  it('changes no replica count of a StatefulSet, a single-primary store or a GPU workload, and writes no field its apiVersion lacks', (t) => {
    let applied = 0;
    let guarded = 0;
    for (const project of readdirSync(CORPUS).filter((name) => statSync(join(CORPUS, name)).isDirectory())) {
      const inventory = new Inventory();
      const files = findManifestFiles(join(CORPUS, project)).map((path) => parseManifest(path, readFileSync(path, 'utf8')));
      for (const file of files) inventory.setFile(file);
      for (const file of files) {
        const before = new Map(file.resources.map((r) => [key(r), r]));
        const fixed = fixFile(file.uri, file.text, inventory);
        applied += fixed.applied.length;
        const where = relative(CORPUS, file.uri);
        for (const after of parseManifest(file.uri, fixed.text).resources) {
          const original = before.get(key(after));
          if (!original) continue;
          const reason = mustKeepItsCount(original);
          if (reason) {
            guarded++;
            // Unset means 1 (leaving the count to an HPA unsets it): no fix may raise it.
            assert.equal(valueAt(after.object, ['spec', 'replicas']) ?? 1, valueAt(original.object, ['spec', 'replicas']) ?? 1, `${where}: ${key(after)} is ${reason}: its replica count stays`);
          }
          if (after.kind === 'HorizontalPodAutoscaler') {
            const target = inventory.scaleTargetOf(original);
            if (target && mustKeepItsCount(target)) assert.equal(valueAt(after.object, ['spec', 'minReplicas']), valueAt(original.object, ['spec', 'minReplicas']), `${where}: ${key(after)} scales ${mustKeepItsCount(target)}`);
          }
          for (const field of FIELDS_NOT_IN.filter((f) => f.apiVersion === after.apiVersion && f.kind === after.kind)) {
            if (valueAt(original.object, [...field.path]) !== undefined) continue;
            assert.equal(valueAt(after.object, [...field.path]), undefined, `${where}: ${key(after)} is ${after.apiVersion}, which has no ${field.path.join('.')}`);
          }
        }
      }
    }
    t.diagnostic(`${applied} safe fixes applied; ${guarded} StatefulSets, single-primary stores and GPU workloads kept their replica counts`);
    assert.ok(applied > 0, 'the corpus has findings with safe fixes');
  });
});
