import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { declaredFacts, parseSeconds } from '../../server/src/manifest/declared';
import { resourceFromObject } from '../../server/src/manifest/parse';

const workload = (annotations: Record<string, unknown>, templateAnnotations: Record<string, unknown> = {}) =>
  resourceFromObject({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'calls', annotations },
    spec: { template: { metadata: { annotations: templateAnnotations }, spec: { containers: [{ name: 'app' }] } } },
  })!;

describe('declared facts', () => {
  it('reads the session length next to the other facts, the pod template winning', () => {
    const facts = declaredFacts(workload({ 'kube-resilience/sessions': 'in-memory', 'kube-resilience/session-seconds': '3600', 'kube-resilience/startup-seconds': '1200' }));
    assert.deepEqual(facts, { startupSeconds: 1200, sessions: 'in-memory', sessionSeconds: 3600, ignore: [] });
    assert.equal(declaredFacts(workload({ 'kube-resilience/session-seconds': '3600' }, { 'kube-resilience/session-seconds': '900' })).sessionSeconds, 900);
  });

  it('adds up the rules the workload and its pod template ignore (the template\'s replaced the workload\'s)', () => {
    const facts = declaredFacts(workload({ 'kube-resilience/ignore': 'single-replica' }, { 'kube-resilience/ignore': 'memory-unbounded, single-replica' }));
    assert.deepEqual(facts.ignore, ['single-replica', 'memory-unbounded']);
  });

  it("reads a CronJob's Job template between the CronJob and its pod template: ignored rules add up, and the innermost fact wins", () => {
    const nightly = resourceFromObject({
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'nightly', annotations: { 'kube-resilience/ignore': 'single-replica', 'kube-resilience/startup-seconds': '60' } },
      spec: {
        jobTemplate: {
          metadata: { annotations: { 'kube-resilience/ignore': 'memory-unbounded', 'kube-resilience/startup-seconds': '120', 'kube-resilience/session-seconds': '900' } },
          spec: { template: { metadata: { annotations: { 'kube-resilience/startup-seconds': '300' } }, spec: { containers: [{ name: 'report' }] } } },
        },
      },
    })!;
    assert.deepEqual(declaredFacts(nightly), { startupSeconds: 300, sessions: undefined, sessionSeconds: 900, ignore: ['single-replica', 'memory-unbounded'] });
  });

  it('counts a length it cannot read as not declared', () => {
    for (const written of ['1h', '0', '-5', '1.5', '', 'forever']) assert.equal(declaredFacts(workload({ 'kube-resilience/session-seconds': written })).sessionSeconds, undefined, written);
    assert.equal(declaredFacts(workload({})).sessionSeconds, undefined);
  });

  it('seconds are positive whole numbers, written as strings or numbers', () => {
    assert.equal(parseSeconds('3600'), 3600);
    assert.equal(parseSeconds(' 90 '), 90);
    assert.equal(parseSeconds(120), 120);
    assert.equal(parseSeconds('99999999999999999999'), undefined);
    assert.equal(parseSeconds(true), undefined);
  });
});
