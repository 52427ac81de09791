// Properties every simulation must have, checked over many generated clusters and scenarios.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SimWorkload } from '../../server/src/simulate/model';
import { TIMING } from '../../server/src/simulate/facts';
import { simulate } from '../../server/src/simulate/simulate';
import type { Failure, Scenario, ScenarioEvent } from '../../server/src/simulate/types';
import { downSeconds, servedArea } from './expect';
import { cluster, workload } from './fixtures';
import { draws, random, randomPlacement } from './random';

const CASES = 150;


const LIVENESS_ONLY = { seconds: 30, probe: 'liveness', container: 'app', formula: 'initialDelaySeconds 0 + 3 × 10 s' } as const;
const STARTUP_COVERING_20_MINUTES = { seconds: 1200, probe: 'startup', container: 'app', formula: 'initialDelaySeconds 0 + 120 × 10 s' } as const;

interface Case {
  seed: number;
  controlPlanes: number;
  workers: number;
  workloads: SimWorkload[];
  scenario: Scenario;
}

/** `sharedStream` draws the slow starters from the main stream too: other cases, kept as regressions. */
function generate(seed: number, sharedStream = false): Case {
  const next = random(seed);
  const slow = sharedStream ? next : random(seed + 0x51_0000);
  const { int, pick } = draws(next);
  const controlPlanes = int(1, 5);
  const workers = int(2, 6);
  const workerNames = Array.from({ length: workers }, (_, i) => `worker-${i + 1}`);
  const workloads = Array.from({ length: int(1, 6) }, (_, i) => {
    const placement = randomPlacement(int(1, 5), workerNames, pick);
    return workload(`app-${i}`, placement, {
      kind: pick(['Deployment', 'Deployment', 'StatefulSet', 'DaemonSet'] as const),
      memoryLimit: next() < 0.5,
      fronted: next() < 0.8,
      ...(next() < 0.4 ? { hpa: { min: 1, max: 10 } } : {}),
      ...(next() < 0.2 ? { apiClient: 'an operator' } : {}),
      // Slow starters, some of which crash-loop on every restart; drawn from their own stream so the other draws stay as they were.
      ...(slow() < 0.3 ? { startSeconds: [20, 600, 1200][Math.floor(slow() * 3)], startBudget: slow() < 0.5 ? LIVENESS_ONLY : STARTUP_COVERING_20_MINUTES } : {}),
    });
  });
  const failure: Failure = pick<Failure>([
    { kind: 'apiserver' },
    { kind: 'etcd' },
    { kind: 'scheduler' },
    { kind: 'controller-manager' },
    { kind: 'nodes', nodes: ['cp-1'] },
    { kind: 'nodes', nodes: ['cp-1', pick(workerNames)] },
  ]);
  const duration = pick([0, 60, 600, 3600, 7200]);
  const at = () => int(0, Math.max(duration, 600));
  const events: ScenarioEvent[] = Array.from({ length: int(0, 4) }, () => {
    const target = pick(workloads);
    return pick<ScenarioEvent>([
      { kind: 'node-reboot', node: pick(workerNames), at: at() },
      { kind: 'node-lost', node: pick(workerNames), at: at() },
      { kind: 'pod-crash', namespace: 'shop', workload: target.name, mode: pick(['restartable', 'permanent'] as const), at: at() },
      { kind: 'traffic-surge', namespace: 'shop', workload: target.name, factor: pick([1.5, 2, 3]), at: at() },
      { kind: 'coredns-restart', at: at() },
      { kind: 'kube-proxy-restart', node: pick(workerNames), at: at() },
    ]);
  });
  return { seed, controlPlanes, workers, workloads, scenario: { fail: failure, duration, events } };
}

const cases = Array.from({ length: CASES }, (_, i) => generate(1000 + i));
const run = (c: Case, scenario: Scenario = c.scenario) => simulate(cluster({ controlPlanes: c.controlPlanes, workers: c.workers }), c.workloads, scenario);

describe('simulation properties', () => {
  it(`orders its timeline by time (${CASES} cases)`, () => {
    for (const c of cases) {
      const { timeline } = run(c);
      for (let i = 1; i < timeline.length; i++) assert.ok(timeline[i - 1].at <= timeline[i].at, `seed ${c.seed}: event ${i} out of order`);
    }
  });

  it('never serves more than desired, never blackholes outside 0–1, never goes back in time', () => {
    for (const c of cases) {
      for (const w of run(c).workloads) {
        w.capacity.forEach((p, i) => {
          assert.ok(p.ready >= 0 && p.ready <= p.desired, `seed ${c.seed}: ${w.name} ready ${p.ready} of ${p.desired}`);
          assert.ok(p.blackholed >= 0 && p.blackholed <= 1, `seed ${c.seed}: ${w.name} blackholed ${p.blackholed}`);
          if (i) assert.ok(w.capacity[i - 1].at <= p.at, `seed ${c.seed}: ${w.name} capacity out of order`);
        });
      }
    }
  });

  it('gives every event a reason and a fact that cites a rule', () => {
    for (const c of cases) {
      for (const e of run(c).timeline) {
        assert.ok(e.reason.length > 10, `seed ${c.seed}: empty reason`);
        assert.match(e.fact, /rule \d+/, `seed ${c.seed}: ${e.reason}`);
        assert.ok(Number.isFinite(e.at) && e.at >= 0);
      }
    }
  });

  it('changes nothing with an outage of zero length and no events', () => {
    for (const c of cases) {
      const result = run(c, { ...c.scenario, duration: 0, events: [] });
      for (const w of result.workloads) {
        for (const p of w.capacity) assert.ok(p.ready === p.desired && p.blackholed === 0 && p.load === undefined, `seed ${c.seed}: ${w.name} changed`);
      }
      for (const row of result.components) assert.deepEqual(row.states.map((s) => s.state), ['ok'], `seed ${c.seed}: ${row.name} changed`);
      assert.ok(result.timeline.every((e) => e.state === 'ok'), `seed ${c.seed}: ${result.timeline.find((e) => e.state !== 'ok')?.reason}`);
    }
  });

  it('never makes an outcome worse with more control planes', () => {
    // 1102 (shared stream): a pod replaced during a memory surge joins the surge, as the pods it replaces did.
    for (const c of [...cases, generate(1102, true)]) {
      for (let n = 1; n <= 4; n++) {
        const fewer = run(c, { ...c.scenario, controlPlanes: n });
        const more = run(c, { ...c.scenario, controlPlanes: n + 1 });
        for (const w of c.workloads) {
          // The one way more control planes serve less, as in a cluster: a controller manager that stays up evicts a
          // StatefulSet's pods from a failed node, and once the node is back they are made again as new pods (their
          // start) where the kubelet would have restarted them in place.
          const slack = w.kind === 'StatefulSet' ? w.replicas * TIMING.assumedPodStart : 0;
          assert.ok(servedArea(more, w.name) >= servedArea(fewer, w.name) - slack, `seed ${c.seed}: ${w.name} serves less with ${n + 1} control planes than with ${n}`);
        }
        for (const row of ['api', 'scheduling', 'controllers', 'dns', 'kubectl'] as const) {
          assert.ok(downSeconds(more, row) <= downSeconds(fewer, row), `seed ${c.seed}: ${row} down longer with ${n + 1} control planes than with ${n}`);
        }
      }
    }
  });

  it('is a pure function: the same inputs give the same result', () => {
    for (const c of cases.slice(0, 20)) assert.deepEqual(run(c), run(c));
  });
});
