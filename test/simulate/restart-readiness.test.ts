// The slow starter's crash loop: a restarted container whose start outlasts what its probes allow never comes back.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { restartReadiness, type StartBudget } from '../../server/src/simulate/restart-readiness';
import { simulate } from '../../server/src/simulate/simulate';
import type { SimWorkload } from '../../server/src/simulate/model';
import type { Scenario, ScenarioEvent } from '../../server/src/simulate/types';
import { capacityAt, eventsAbout } from './expect';
import { cluster, workload } from './fixtures';

const TWO_HOURS = 7200;
const apiserverDown = (events: ScenarioEvent[]): Scenario => ({ fail: { kind: 'apiserver' }, duration: TWO_HOURS, events });
const crash = (at: number, workloadName = 'billing'): ScenarioEvent => ({ kind: 'pod-crash', namespace: 'legacy', workload: workloadName, mode: 'restartable', at });

const DEFAULT_LIVENESS: StartBudget = { seconds: 30, probe: 'liveness', container: 'app', formula: 'initialDelaySeconds 0 + 3 × 10 s' };
const COVERING_STARTUP: StartBudget = { seconds: 1200, probe: 'startup', container: 'app', formula: 'initialDelaySeconds 0 + 120 × 10 s' };

/** The founding story: a legacy app server that needs 20 minutes to start. */
const billing = (startBudget: StartBudget | undefined, extra: Partial<SimWorkload> = {}) =>
  workload('billing', { 'worker-1': 1, 'worker-2': 1, 'worker-3': 1 }, { namespace: 'legacy', startSeconds: 1200, startBudget, ...extra });

describe('how long until a restarted container is ready, or never', () => {
  it('is its declared start when its probes allow that long', () => {
    assert.deepEqual(restartReadiness({ startSeconds: 1200, startBudget: COVERING_STARTUP }, 0), { comesUp: true, after: 1200 });
    assert.deepEqual(restartReadiness({ startSeconds: 20, startBudget: DEFAULT_LIVENESS }, 0), { comesUp: true, after: 20 });
    assert.deepEqual(restartReadiness({ startSeconds: 1200 }, 0), { comesUp: true, after: 1200 }, 'no probe kills it while it starts');
  });

  it('is the assumed start when the workload declares none', () => {
    assert.deepEqual(restartReadiness({ startBudget: DEFAULT_LIVENESS }, 0), { comesUp: true, after: 0 });
    assert.deepEqual(restartReadiness({ startBudget: DEFAULT_LIVENESS }, 30), { comesUp: true, after: 30 });
  });

  it('is never when liveness kills it before it is up, and says so with the numbers', () => {
    const verdict = restartReadiness({ startSeconds: 1200, startBudget: DEFAULT_LIVENESS }, 0);
    assert.equal(verdict.comesUp, false);
    assert.match(verdict.comesUp ? '' : verdict.why, /needs 1200 s to start.*liveness kills container app after 30 s \(initialDelaySeconds 0 \+ 3 × 10 s\) and there is no startup probe.*back-off 10 s, 20 s, 40 s … capped at 300 s/);
  });

  it('is never when a startup probe gives up before the start is over', () => {
    const verdict = restartReadiness({ startSeconds: 1200, startBudget: { ...COVERING_STARTUP, seconds: 600, formula: 'initialDelaySeconds 0 + 60 × 10 s' } }, 0);
    assert.match(verdict.comesUp ? '' : verdict.why, /startup probe of container app gives up after 600 s/);
  });
});

describe('the slow starter crashes in place during a 2 h API-server outage', () => {
  const end = (result: ReturnType<typeof simulate>) => result.end!;

  it('without a startup probe, the crashed pod is down from 15 m to the end, beyond recovery', () => {
    const result = simulate(cluster(), [billing(DEFAULT_LIVENESS)], apiserverDown([crash(900)]));
    assert.equal(capacityAt(result, 'billing', 899).ready, 3);
    assert.equal(capacityAt(result, 'billing', 900).ready, 2);
    assert.equal(capacityAt(result, 'billing', TWO_HOURS).ready, 2);
    assert.ok(end(result) > TWO_HOURS);
    assert.equal(capacityAt(result, 'billing', end(result)).ready, 2, 'no controller replaces a crash-looping pod, even with the API back');
    assert.equal(capacityAt(result, 'billing', TWO_HOURS - 1).blackholed, 0.333, 'the frozen Service still sends it a third of new connections');
    assert.equal(capacityAt(result, 'billing', end(result)).blackholed, 0, 'once the endpoint controller acts, the unready pod leaves the Service');
    const told = eventsAbout(result, 'billing').find((e) => e.at === 900)!;
    assert.match(told.reason, /1200 s to start.*after 30 s.*no startup probe/);
    assert.match(told.fact, /rule 4/);
    assert.match(told.fact, /probes keep killing containers locally.*facts\/data-plane\.md §1/);
  });

  it('with a startup probe that covers the start, the pod is back after back-off and its start', () => {
    const result = simulate(cluster(), [billing(COVERING_STARTUP)], apiserverDown([crash(900)]));
    assert.equal(capacityAt(result, 'billing', 900 + 10 + 1200 - 1).ready, 2);
    assert.equal(capacityAt(result, 'billing', 900 + 10 + 1200).ready, 3);
    assert.match(eventsAbout(result, 'billing').find((e) => e.at === 900)!.reason, /10 s back-off, serves again after its 1200 s start/);
  });

  it('with the controller manager acting, the starting pod leaves its Service and returns when ready', () => {
    const result = simulate(cluster(), [billing(COVERING_STARTUP)], { fail: { kind: 'scheduler' }, duration: TWO_HOURS, events: [crash(900)] });
    assert.deepEqual(capacityAt(result, 'billing', 900), { at: 900, ready: 2, desired: 3, blackholed: 0 });
    assert.deepEqual(capacityAt(result, 'billing', 2110), { at: 2110, ready: 3, desired: 3, blackholed: 0 });
  });

  it('a fast starter is back after the back-off alone, as before', () => {
    const result = simulate(cluster(), [billing(DEFAULT_LIVENESS, { startSeconds: undefined })], apiserverDown([crash(900)]));
    assert.equal(capacityAt(result, 'billing', 910).ready, 3);
  });
});

describe('every other restart of the slow starter crash-loops too', () => {
  it('its pods on a rebooted worker restart when the API is back, and never come up', () => {
    const result = simulate(cluster(), [billing(DEFAULT_LIVENESS)], apiserverDown([{ kind: 'node-reboot', node: 'worker-2', at: 600 }]));
    assert.equal(capacityAt(result, 'billing', 600).ready, 2);
    assert.equal(capacityAt(result, 'billing', result.end!).ready, 2);
    assert.equal(capacityAt(result, 'billing', result.end!).blackholed, 0, 'the old IPs leave the endpoints, the new unready ones are not listed');
    assert.ok(eventsAbout(result, 'billing').some((e) => e.at > TWO_HOURS && /reached the API again.*1200 s to start/.test(e.reason)));
  });

  it('the same reboot with a covering startup probe: back after its start once the node reaches the API', () => {
    const result = simulate(cluster(), [billing(COVERING_STARTUP, { startSeconds: 120 })], apiserverDown([{ kind: 'node-reboot', node: 'worker-2', at: 600 }]));
    assert.equal(capacityAt(result, 'billing', TWO_HOURS + 60).ready, 2, 'the kubelet reached the API but the app is still starting');
    assert.equal(capacityAt(result, 'billing', result.end!).ready, 3);
  });

  it('a replacement for a pod lost with its node crash-loops after recovery', () => {
    const result = simulate(cluster(), [billing(DEFAULT_LIVENESS)], apiserverDown([{ kind: 'node-lost', node: 'worker-2', at: 600 }]));
    assert.equal(capacityAt(result, 'billing', result.end!).ready, 2);
    assert.ok(eventsAbout(result, 'billing').some((e) => /the replacement starts, but it needs 1200 s/.test(e.reason)));
  });

  it('a static pod restarted after its node reboots never comes up', () => {
    const staticPod = workload('billing', { 'worker-2': 1 }, { kind: 'Pod', namespace: 'legacy', staticPod: true, startSeconds: 1200, startBudget: DEFAULT_LIVENESS });
    const result = simulate(cluster(), [staticPod], apiserverDown([{ kind: 'node-reboot', node: 'worker-2', at: 600 }]));
    assert.equal(capacityAt(result, 'billing', result.end!).ready, 0);
    assert.ok(eventsAbout(result, 'billing').some((e) => /starts static pod .* again from disk, but it needs 1200 s/.test(e.reason)));
  });

  it('an OOM-killed container under a surge stays down instead of looping through back-off', () => {
    const result = simulate(cluster(), [billing(DEFAULT_LIVENESS)], apiserverDown([{ kind: 'traffic-surge', namespace: 'legacy', workload: 'billing', factor: 3, at: 300 }]));
    assert.equal(capacityAt(result, 'billing', 300 + 30).ready, 0);
    assert.equal(capacityAt(result, 'billing', result.end!).ready, 0);
  });
});
