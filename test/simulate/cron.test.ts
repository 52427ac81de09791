// A CronJob that never starts a run loses nothing when the controller manager stops: suspended, or a schedule
// that matches no date. Kubernetes reads schedules as robfig/cron does.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Inventory } from '../../server/src/inventory/inventory';
import { parseManifest } from '../../server/src/manifest/parse';
import { buildSimInputs } from '../../server/src/simulate/build-inputs';
import { scheduleNeverFires } from '../../server/src/simulate/cron';
import { simulate } from '../../server/src/simulate/simulate';

describe('schedules that never fire', () => {
  const cases: [string, boolean, string][] = [
    ['0 0 30 2 *', true, 'February the 30th'],
    ['0 0 31 4,6,9,11 *', true, 'the 31st of months with 30 days'],
    ['0 0 30-31 feb ?', true, 'month by name, "?" for the day of the week'],
    ['0 0 29 2 *', false, 'February the 29th comes every four years'],
    ['0 0 30 2 1', false, 'a restricted day of the week fires on Mondays whatever the day of the month'],
    ['0 0 30 2 */2', false, 'a stepped day of the week is restricted too'],
    ['0 0 30 1-3 *', false, 'January and March have a 30th'],
    ['*/5 * * * *', false, 'every five minutes'],
    ['@daily', false, 'a descriptor'],
    ['0 0 32 2 *', false, 'a day that does not exist is a schedule the API refuses, not one that never fires'],
    ['not a schedule', false, 'unreadable: taken to fire'],
    ['', false, 'empty'],
  ];
  for (const [schedule, never, why] of cases) {
    it(`"${schedule}": ${never ? 'never fires' : 'fires'} (${why})`, () => assert.equal(scheduleNeverFires(schedule), never));
  }
});

describe('a CronJob that never runs, during a control-plane outage', () => {
  const cronJob = (name: string, spec: string) => `apiVersion: batch/v1
kind: CronJob
metadata: {name: ${name}, namespace: shop}
spec:
${spec}
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers: [{name: job, image: busybox}]
`;
  const inventory = new Inventory();
  inventory.setFile(parseManifest('cron.yaml', [cronJob('leap', '  schedule: "0 0 30 2 *"'), cronJob('paused', '  schedule: "*/5 * * * *"\n  suspend: true'), cronJob('report', '  schedule: "0 6 * * *"')].join('---\n')));
  const { topology, workloads } = buildSimInputs(inventory, undefined);
  const result = simulate(topology, workloads, { fail: { kind: 'apiserver' }, duration: 3600, events: [] });
  const about = (name: string) => result.timeline.filter((e) => e.subject.name === name);

  it('is not degraded, and the report says why it loses nothing', () => {
    assert.deepEqual(about('leap').map((e) => [e.at, e.state, e.reason]), [[0, 'ok', 'CronJob shop/leap: its schedule "0 0 30 2 *" matches no date, so it starts no run anyway: the controller manager being down costs it nothing']]);
    assert.deepEqual(about('paused').map((e) => [e.at, e.state, e.reason]), [[0, 'ok', 'CronJob shop/paused: it is suspended (suspend: true), so it starts no run anyway: the controller manager being down costs it nothing']]);
    assert.ok(!result.summary!.some((line) => /leap|paused/.test(line)), result.summary!.join('\n'));
  });

  it('while one that runs every morning is degraded until the controllers are back', () => {
    assert.deepEqual(about('report').map((e) => e.state), ['degraded', 'ok']);
    assert.match(result.summary!.at(-1)!, /^1 of 3 workloads affected$/);
  });

  it('with only the scheduler down, its runs are made but do no work: degraded until the scheduler is back, which starts them together (it was "unaffected")', () => {
    const noScheduler = simulate(topology, workloads, { fail: { kind: 'scheduler' }, duration: 2820, events: [] });
    const report = noScheduler.timeline.filter((e) => e.subject.name === 'report');
    assert.deepEqual(report.map((e) => [e.at, e.state]), [[0, 'degraded'], [2820, 'ok']]);
    assert.match(report[0].reason, /its runs' Jobs are made on schedule, but their pods stay Pending while no scheduler runs/);
    assert.match(report[1].reason, /the scheduler is back and binds the pods of the runs made meanwhile: they start now, together/);
    assert.match(noScheduler.timeline.find((e) => e.subject.name === 'leap')!.reason, /the scheduler being down costs it nothing/);
  });
});
