// Properties every drain, scale-down and node upgrade must have, over many generated clusters and scenarios.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TIMING } from '../../server/src/simulate/facts';
import type { SimWorkload } from '../../server/src/simulate/model';
import { simulate } from '../../server/src/simulate/simulate';
import type { Scenario, ScenarioEvent, SimulationResult } from '../../server/src/simulate/types';
import { desiredHealthy, type PdbBudget } from '../../server/src/manifest/pdb';
import { cluster, workload } from './fixtures';
import { draws, random, randomPlacement } from './random';

const CASES = 120;

interface Case {
  seed: number;
  workers: number;
  workloads: SimWorkload[];
  scenario: Scenario;
}

function generate(seed: number): Case {
  const next = random(seed);
  const { int, pick } = draws(next);
  const workers = int(2, 5);
  const names = Array.from({ length: workers }, (_, i) => `worker-${i + 1}`);
  const workloads = Array.from({ length: int(1, 5) }, (_, i) => {
    const placement = randomPlacement(int(1, 4), names, pick);
    const budgets: (PdbBudget | undefined)[] = [undefined, { field: 'maxUnavailable', value: { kind: 'int', value: 1 } }, { field: 'maxUnavailable', value: { kind: 'int', value: 0 } }, { field: 'minAvailable', value: { kind: 'int', value: int(1, 3) } }, { field: 'minAvailable', value: { kind: 'percent', value: 50 } }];
    const budget = pick(budgets);
    return workload(`app-${i}`, placement, {
      kind: pick(['Deployment', 'Deployment', 'StatefulSet', 'DaemonSet'] as const),
      ...(budget ? { disruptionBudget: { pdb: `shop/app-${i}-pdb`, budget }, pdb: true } : {}),
      ...(next() < 0.5 ? { terminationGrace: pick([0, 30, 60, 600, 3600]) } : {}),
      ...(next() < 0.3 ? { sessions: 'in-memory' as const, ...(next() < 0.6 ? { sessionSeconds: pick([60, 900, 3600]) } : {}) } : {}),
      ...(next() < 0.4 ? { startSeconds: pick([10, 300, 1200]) } : {}),
    });
  });
  const events: ScenarioEvent[] = Array.from({ length: int(1, 3) }, () =>
    pick<ScenarioEvent>([
      { kind: 'drain', node: pick(names), at: int(0, 1800) },
      { kind: 'scale-down', node: pick(names), at: int(0, 1800) },
      { kind: 'upgrade-nodes', at: int(0, 600) },
    ]),
  );
  return { seed, workers, workloads, scenario: { fail: { kind: 'none' }, duration: pick([3600, 7200]), events: events.filter((e, i) => e.kind !== 'upgrade-nodes' || events.findIndex((o) => o.kind === 'upgrade-nodes') === i) } };
}

const cases = Array.from({ length: CASES }, (_, i) => generate(5000 + i));
const results = new Map<number, SimulationResult>();
const run = (c: Case) => results.get(c.seed) ?? results.set(c.seed, simulate(cluster({ workers: c.workers }), c.workloads, c.scenario)).get(c.seed)!;

describe('voluntary disruption properties', () => {
  it(`a drain never lowers a workload below what its PDB allows (${CASES} cases)`, () => {
    let guarded = 0;
    for (const c of cases) {
      for (const w of c.workloads.filter((w) => w.disruptionBudget && w.kind !== 'DaemonSet')) {
        const floor = Math.min(desiredHealthy(w.disruptionBudget!.budget, w.replicas), w.replicas);
        const points = run(c).workloads.find((r) => r.name === w.name)!.capacity;
        for (const p of points) assert.ok(p.ready >= floor, `seed ${c.seed}: ${w.name} at ${p.ready} below its PDB's ${floor} at ${p.at}`);
        guarded++;
      }
    }
    assert.ok(guarded > 50, `only ${guarded} guarded workloads generated`);
  });

  it('a pod never terminates later than its grace period, or the autoscaler cap for a scale-down', () => {
    let ended = 0;
    for (const c of cases) {
      for (const d of run(c).drains!) {
        if (d.end === null || !d.evicted.length) continue;
        const graces = d.evicted.map((e) => c.workloads.find((w) => `shop/${w.name}` === e.workload)!.terminationGrace ?? TIMING.defaultTerminationGrace);
        const longest = Math.max(...graces.map((g) => (d.by === 'autoscaler' ? Math.min(g, TIMING.autoscalerGraceCap) : g)));
        const lastEviction = Math.max(...d.evicted.map((e) => e.at));
        assert.ok(d.end - lastEviction <= longest, `seed ${c.seed}: ${d.node} empty ${d.end - lastEviction} s after its last eviction, longest grace ${longest} s`);
        ended++;
      }
    }
    assert.ok(ended > 30, `only ${ended} drains ended`);
  });

  it('a drain blocked by a PDB never ends while the PDB allows nothing', () => {
    let blocked = 0;
    for (const c of cases) {
      for (const d of run(c).drains!) {
        for (const b of d.blocked) {
          blocked++;
          if (b.to === null) assert.equal(d.end, null, `seed ${c.seed}: ${d.node} ends at ${d.end} while ${b.pdb} still refuses`);
          else if (d.end !== null) assert.ok(d.end >= b.to, `seed ${c.seed}: ${d.node} ends at ${d.end} before ${b.pdb} lets go at ${b.to}`);
        }
      }
    }
    assert.ok(blocked > 20, `only ${blocked} blocked evictions generated`);
  });

  it('every drain event cites a rule, and the autoscaler never evicts from a node it does not pick', () => {
    for (const c of cases) {
      const result = run(c);
      for (const e of result.timeline) assert.match(e.fact, /rule \d+/, `seed ${c.seed}: ${e.reason}`);
      for (const d of result.drains!) if (d.by === 'autoscaler' && d.notRemovedBecause && !/gave up/.test(d.notRemovedBecause)) assert.deepEqual(d.evicted, [], `seed ${c.seed}`);
    }
  });
});
