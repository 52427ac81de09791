import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Resource } from '../../server/src/manifest/parse';
import { ReadLog } from '../../server/src/inventory/reads';

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
});
