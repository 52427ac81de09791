// Real manifests written by others: the simulator must take them all without a crash, and stay quick.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { it } from 'node:test';
import { Inventory } from '../../server/src/inventory/inventory';
import { findManifestFiles } from '../../server/src/inventory/manifest-files';
import { parseManifest } from '../../server/src/manifest/parse';
import { buildSimInputs } from '../../server/src/simulate/build-inputs';
import { simulate } from '../../server/src/simulate/simulate';

const CORPUS = '../shared/corpus';

it('simulates every workload of the corpus on an assumed cluster', { skip: existsSync(CORPUS) ? false : `${CORPUS} is absent` }, (t) => {
  const inventory = new Inventory();
  for (const path of findManifestFiles(CORPUS)) inventory.setFile(parseManifest(path, readFileSync(path, 'utf8')));
  const started = performance.now();
  const { topology, workloads } = buildSimInputs(inventory, undefined);
  const surge = workloads.find((w) => w.replicas > 1)!;
  const result = simulate(topology, workloads, {
    fail: { kind: 'apiserver' },
    duration: 7200,
    events: [
      { kind: 'node-reboot', node: 'worker-2', at: 600 },
      { kind: 'traffic-surge', namespace: surge.namespace, workload: surge.name, factor: 3, at: 300 },
      { kind: 'coredns-restart', at: 1200 },
    ],
  });
  const elapsed = performance.now() - started;
  assert.ok(workloads.length > 50, `only ${workloads.length} workloads found`);
  assert.equal(result.workloads.length, workloads.length);
  for (const w of result.workloads) for (const p of w.capacity) assert.ok(p.ready <= p.desired && p.blackholed >= 0 && p.blackholed <= 1, `${w.namespace}/${w.name}`);
  assert.ok(workloads.every((w) => w.placementSource === 'assumed'));
  assert.ok(elapsed < 5000, `took ${Math.round(elapsed)} ms`);
  t.diagnostic(`corpus: ${workloads.length} workloads simulated in ${Math.round(elapsed)} ms`);
});
