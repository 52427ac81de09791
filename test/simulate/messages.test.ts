import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sameScenario, validateFromWebview, validateScenario, validateSimulationResult, validateToWebview } from '../../server/src/simulate/messages';
import { simulate } from '../../server/src/simulate/simulate';
import { cluster, workload } from './fixtures';

const scenario = { fail: { kind: 'apiserver' as const }, duration: 7200, events: [{ kind: 'node-reboot' as const, node: 'worker-2', at: 600 }] };

describe('simulation messages', () => {
  it('accepts what the engine produces, unchanged', () => {
    const result = simulate(cluster(), [workload('web', { 'worker-1': 1, 'worker-2': 1, 'worker-3': 1 }), workload('api', { 'worker-2': 1 })], scenario);
    const checked = validateToWebview({ type: 'result', result });
    assert.ok(checked.ok, !checked.ok ? checked.error : '');
    assert.deepEqual(checked.value, { type: 'result', result: JSON.parse(JSON.stringify(result)) });
  });

  it('accepts each message the page sends', () => {
    for (const message of [{ type: 'ready' }, { type: 'simulate', scenario }, { type: 'export', scenario }, { type: 'simulate', scenario: { fail: { kind: 'nodes', nodes: ['cp-1'] }, duration: 60, controlPlanes: 3, events: [{ kind: 'traffic-surge', namespace: 'shop', workload: 'web', factor: 3, at: 300 }] } }]) {
      const checked = validateFromWebview(message);
      assert.ok(checked.ok, !checked.ok ? checked.error : '');
      assert.deepEqual(checked.value, message);
    }
  });

  it('names where a malformed message goes wrong', () => {
    const cases: [unknown, RegExp][] = [
      [null, /message: expected an object/],
      [{ type: 'eval', code: '1' }, /message\.type: expected one of ready, simulate, export/],
      [{ type: 'simulate', scenario: { ...scenario, duration: Infinity } }, /message\.scenario\.duration: expected a number/],
      [{ type: 'simulate', scenario: { ...scenario, events: [{ kind: 'node-reboot', at: 5 }] } }, /message\.scenario\.events\[0\]\.node: expected a string/],
      [{ type: 'simulate', scenario: { ...scenario, fail: { kind: 'nodes', nodes: [''] } } }, /message\.scenario\.fail\.nodes\[0\]: expected a non-empty name/],
      [{ type: 'export', scenario: { ...scenario, controlPlanes: 0 } }, /controlPlanes: expected a number in \[1, 9\]/],
      // The simulator steps in whole seconds: 3600.5 was titled "1 h 1 s".
      [{ type: 'simulate', scenario: { ...scenario, duration: 3600.5 } }, /message\.scenario\.duration: expected a whole number/],
      [{ type: 'simulate', scenario: { ...scenario, events: [{ kind: 'coredns-restart', at: 0.5 }] } }, /message\.scenario\.events\[0\]\.at: expected a whole number/],
      [{ type: 'simulate', scenario: { ...scenario, controlPlanes: 2.5 } }, /message\.scenario\.controlPlanes: expected a whole number/],
    ];
    for (const [message, error] of cases) {
      const checked = validateFromWebview(message);
      assert.equal(checked.ok, false, JSON.stringify(message));
      assert.match(!checked.ok ? checked.error : '', error);
    }
  });

  it('drops extra fields instead of passing them on', () => {
    const checked = validateScenario({ ...scenario, extra: '<script>', events: [{ ...scenario.events[0], html: '<b>' }] });
    assert.ok(checked.ok);
    assert.deepEqual(checked.value, scenario);
  });

  it('refuses a result with a state or subject it does not know', () => {
    const result = simulate(cluster(), [], scenario);
    const bad = { ...result, timeline: [{ ...result.timeline[0], state: 'on fire' }] };
    assert.match((validateSimulationResult(bad) as { error: string }).error, /result\.timeline\[0\]\.state: expected one of ok, degraded, down/);
  });
});

describe('sameScenario', () => {
  it('ignores key order and tells different scenarios apart', () => {
    assert.equal(sameScenario(scenario, { events: [{ at: 600, node: 'worker-2', kind: 'node-reboot' }], duration: 7200, fail: { kind: 'apiserver' } }), true);
    assert.equal(sameScenario(scenario, { ...scenario, duration: 3600 }), false);
    assert.equal(sameScenario(scenario, { ...scenario, controlPlanes: 3 }), false);
  });
});
