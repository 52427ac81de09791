import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { disruptedPodAction } from '../../server/src/manifest/pod-failure-policy';

const rule = (action: string, onPodConditions?: unknown, onExitCodes?: unknown) => ({ action, ...(onPodConditions ? { onPodConditions } : {}), ...(onExitCodes ? { onExitCodes } : {}) });

describe('what a Job does with a pod a disruption took', () => {
  it('counts it against backoffLimit when no podFailurePolicy says otherwise', () => {
    assert.equal(disruptedPodAction({}), 'Count');
    assert.equal(disruptedPodAction({ podFailurePolicy: { rules: [rule('FailJob', undefined, { operator: 'In', values: [42] })] } }), 'Count');
  });

  it('takes the first rule whose pod conditions name DisruptionTarget (status True by default)', () => {
    const rules = [rule('FailJob', [{ type: 'DisruptionTarget', status: 'False' }]), rule('Ignore', [{ type: 'DisruptionTarget' }]), rule('FailJob', [{ type: 'DisruptionTarget' }])];
    assert.equal(disruptedPodAction({ podFailurePolicy: { rules } }), 'Ignore');
  });

  it('passes over exit-code rules, whose match a disrupted container cannot be known to make', () => {
    const rules = [rule('FailJob', undefined, { operator: 'NotIn', values: [0] }), rule('Ignore', [{ type: 'DisruptionTarget', status: 'True' }])];
    assert.equal(disruptedPodAction({ podFailurePolicy: { rules } }), 'Ignore');
  });

  it('passes over a rule whose action is none the API server knows', () => {
    assert.equal(disruptedPodAction({ podFailurePolicy: { rules: [rule('Retry', [{ type: 'DisruptionTarget' }])] } }), 'Count');
  });
});
