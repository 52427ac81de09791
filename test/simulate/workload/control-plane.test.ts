// The control-plane-change handler: API clients, CronJobs and HPAs feel the API come and go.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ControlPlaneSegment } from '../../../server/src/simulate/control-plane';
import { workload } from '../fixtures';
import { play, runOf } from './harness';

const segment = (writes: boolean, controllers: boolean): ControlPlaneSegment => ({ from: 0, etcd: { members: 1, alive: 1, quorum: true }, apiServers: [], writes, cachedReads: false, scheduling: controllers, controllers, schedulingLeaseMoving: false, controllersLeaseMoving: false });

describe('control-plane-change handler', () => {
  const cases = [
    { name: 'an API client loses the API: degraded although all pods run', extra: { apiClient: 'an operator' }, to: segment(false, false), state: 'degraded', says: /its API calls fail at once/ },
    { name: 'a CronJob stops starting runs', extra: { kind: 'CronJob', schedule: '*/5 * * * *', replicas: 0 }, to: segment(false, false), state: 'degraded', says: /no run starts/ },
    { name: 'an HPA freezes at its running replica, one replica said as one', extra: { hpa: { min: 1, max: 5 } }, to: segment(false, false), state: 'ok', says: /frozen at 1 replica \(no scale-out/ },
    { name: 'nothing to tell for a plain Deployment', extra: {}, to: segment(false, false), state: undefined, says: /^$/ },
  ] as const;
  for (const c of cases) {
    it(c.name, () => {
      const run = runOf(workload('app', { 'worker-1': 1 }, c.extra as object));
      const { events, reasons } = play(run, 0, { kind: 'control-plane-change', segment: c.to, previous: { writes: true, controllers: true, scheduling: true } });
      assert.equal(events[0]?.state, c.state);
      assert.match(reasons, c.says);
    });
  }

  it('an HPA freezes at its replica count, not at the pods that run (it said 1 of a Deployment of 2 with one pod dead)', () => {
    const run = runOf(workload('app', { 'worker-1': 1, 'worker-2': 1 }, { hpa: { min: 1, max: 5 } }));
    run.slots[1].alive = false;
    const { reasons } = play(run, 0, { kind: 'control-plane-change', segment: segment(false, false), previous: { writes: true, controllers: true, scheduling: true } });
    assert.match(reasons, /its HPA is frozen at 2 replicas \(no scale-out/);
  });
});
