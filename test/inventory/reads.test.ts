import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Resource } from '../../server/src/manifest/parse';
import { ReadLog } from '../../server/src/inventory/reads';
import { pausesOf } from '../steps';

/** A resource of `kind`, with an object of its own (a new parse of it). */
function resource(kind: string): Resource {
  return { apiVersion: 'v1', kind, name: 'a', namespace: 'default', object: { kind } };
}

describe('ReadLog', () => {
  it('holds what was read until a group it read moves, whatever else moves', () => {
    const log = new ReadLog((r) => [r.kind]);
    const deployment = resource('Deployment');
    const service = resource('Service');
    log.replaced([], [deployment, service]);
    const { reads } = log.record(() => log.read('Deployment'));
    assert.equal(log.unchangedSince(reads), true);
    log.replaced([service], [resource('Service')]);
    assert.equal(log.unchangedSince(reads), true, 'a Service changed: the Deployment group did not move');
    log.replaced([deployment], [resource('Deployment')]);
    assert.equal(log.unchangedSince(reads), false);
  });

  it('keeps a bounded number of groups however many names come and go: past the limit it starts afresh, and what was recorded before is analysed again', () => {
    const log = new ReadLog((r) => [r.kind, `name=${r.name}`]);
    const named = (name: string): Resource => ({ ...resource('Deployment'), name, object: { name } });
    let current = named('web-0');
    log.replaced([], [current]);
    const { reads } = log.record(() => log.read('Service'));
    let largest = 0;
    for (let i = 1; i <= 20_000; i++) {
      const next = named(`web-${i}`);
      log.replaced([current], [next]);
      current = next;
      largest = Math.max(largest, log.size);
    }
    assert.ok(largest <= 4_097 + 2, `${largest} groups kept at most`);
    assert.equal(log.unchangedSince(reads), false, 'nothing moved the Service group, but it was recorded before the log started afresh');
    const after = log.record(() => log.read('Service')).reads;
    assert.equal(log.unchangedSince(after), true, 'what is recorded after holds as before');
  });

  /** A log of a Deployment renamed again and again (each name a group of its own), and a read of the Service group recorded at the start. */
  const renamedOver = (resourceCount: () => number) => {
    const log = new ReadLog((r) => [r.kind, `name=${r.name}`], resourceCount);
    const named = (name: string): Resource => ({ ...resource('Deployment'), name, object: { name } });
    let current = named('web-0');
    log.replaced([], [current]);
    const { reads } = log.record(() => log.read('Service'));
    let renames = 0;
    const rename = () => {
      const next = named(`web-${++renames}`);
      log.replaced([current], [next]);
      current = next;
    };
    return { log, reads, rename };
  };

  it('keeps up to 4,096 groups without counting the resources, and starts afresh past them when it holds none', () => {
    let counted = 0;
    const { log, reads, rename } = renamedOver(() => {
      counted++;
      return 0;
    });
    while (log.size < 4_096 && log.unchangedSince(reads)) rename();
    assert.equal(log.size, 4_096);
    rename();
    assert.equal(log.size, 4_097, '4,096 groups are kept');
    assert.equal(log.unchangedSince(reads), true, 'what was recorded holds');
    assert.equal(counted, 0, 'no resource is counted while the log holds no more than 4,096 groups');
    rename();
    assert.ok(log.size < 10, `${log.size} groups: past 4,096 it started afresh`);
    assert.equal(log.unchangedSince(reads), false);
    assert.ok(counted > 0);
  });

  it('keeps 8 groups more for each resource its owner holds', () => {
    const { log, reads, rename } = renamedOver(() => 1_000);
    let largest = 0;
    while (log.unchangedSince(reads) && largest < 20_000) {
      largest = Math.max(largest, log.size);
      rename();
    }
    assert.equal(largest, 4_096 + 8 * 1_000 + 1, 'it started afresh once past 4,096 groups and 8 for each of 1,000 resources');
  });

  it('holds reads recorded in a log on its copy until a group moves there, while the log itself goes on apart', () => {
    const log = new ReadLog((r) => [r.kind]);
    const deployment = resource('Deployment');
    log.replaced([], [deployment]);
    const { reads } = log.record(() => log.read('Deployment'));
    assert.equal(log.unchangedSince(reads), true);
    const copy = log.copy();
    assert.equal(copy.unchangedSince(reads), true, 'the copy goes on from the log');
    copy.replaced([deployment], [resource('Deployment')]);
    assert.equal(copy.unchangedSince(reads), false, 'the Deployment moved on the copy');
    assert.equal(log.unchangedSince(reads), true, 'but not on the log');
    assert.equal(copy.unchangedSince(reads.copy()), false);
    log.everythingChanged();
    assert.equal(log.unchangedSince(reads), false, 'a new cluster view moves every group');
  });

  it('gives a recording inside another to both, each group of the inner one moving the outer one', () => {
    for (const moving of ['A', 'B', 'C', 'D']) {
      const log = new ReadLog((r) => [r.kind]);
      const resources = ['A', 'B', 'C', 'D'].map(resource);
      log.replaced([], resources);
      let inner = log.record(() => undefined).reads;
      const { reads: outer } = log.record(() => {
        log.read('A');
        inner = log.record(() => ['C', 'A', 'B'].forEach((kind) => log.read(kind))).reads;
        log.read('D');
      });
      assert.deepEqual(outer.names, ['A', 'C', 'B', 'D']);
      const byName = { outer: outer.copy(), inner: inner.copy() };
      log.replaced([resources.find((r) => r.kind === moving)!], [resource(moving)]);
      assert.equal(log.unchangedSince(outer), false, `${moving} moved: the outer recording read it`);
      assert.equal(log.unchangedSince(inner), moving === 'D', `${moving} moved: the inner recording ${moving === 'D' ? 'did not read' : 'read'} it`);
      // Reads looked up afresh by name agree with those the log handed over as it read them.
      assert.deepEqual([log.unchangedSince(byName.outer), log.unchangedSince(byName.inner)], [false, moving === 'D']);
    }
  });

  it('replaces thousands of resources in steps that end where replacing them at once does', () => {
    const before = Array.from({ length: 1200 }, (_, i) => resource(`Kind${i}`));
    const after = before.map((r) => resource(r.kind));
    const [atOnce, inSteps] = [new ReadLog((r) => [r.kind]), new ReadLog((r) => [r.kind])];
    const reads = [atOnce, inSteps].map((log) => {
      log.replaced([], before);
      return [0, 599, 1199].map((i) => log.record(() => log.read(`Kind${i}`)).reads);
    });
    atOnce.replaced(before, after);
    const { pauses } = pausesOf(inSteps.replacedInSteps(before, after));
    assert.ok(pauses >= 2, `it pauses: ${pauses}`);
    assert.deepEqual(
      reads[1].map((r) => inSteps.unchangedSince(r)),
      reads[0].map((r) => atOnce.unchangedSince(r)),
    );
    assert.deepEqual(reads[0].map((r) => atOnce.unchangedSince(r)), [false, false, false]);
  });
});

