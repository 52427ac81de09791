// A finding's hover offers to simulate a drain of the node its workload runs on: a command link the client trusts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SIMULATE_WORKLOAD_COMMAND, validateSimulateWorkloadArgs } from '../../server/src/simulate/messages';
import { hover, PDB, workload } from './hover-helpers';

/** The arguments the link hands the command, decoded as VS Code does. */
function linkArgs(markdown: string): unknown {
  const match = /\[Simulate a drain of its node\]\(command:([^?]+)\?([^ )]+)/.exec(markdown);
  assert.ok(match, `no drain link in:\n${markdown}`);
  assert.equal(match[1], SIMULATE_WORKLOAD_COMMAND);
  return JSON.parse(decodeURIComponent(match[2]));
}

describe('the drain link of a finding\'s hover', () => {
  it('on a workload card with findings: drains the node of that workload', () => {
    const args = linkArgs(hover(workload('Deployment', '  replicas: 1\n'), 'kind: Deployment')!);
    assert.deepEqual(args, [{ namespace: 'default', name: 'web', kind: 'Deployment', drain: true }]);
    assert.ok(validateSimulateWorkloadArgs((args as unknown[])[0]).ok, 'the command accepts what the link sends');
  });

  it('on a field with a finding on its line', () => {
    assert.deepEqual(linkArgs(hover(workload('Deployment', '  replicas: 1\n'), 'replicas')!), [{ namespace: 'default', name: 'web', kind: 'Deployment', drain: true }]);
  });

  it('on a PDB that blocks every eviction: drains the node of the workload it guards', () => {
    const text = hover(PDB('maxUnavailable: 0'), 'maxUnavailable', { 'web.yaml': workload('Deployment', '  replicas: 3\n') })!;
    assert.match(text, /pdb-blocks-eviction/);
    assert.deepEqual(linkArgs(text), [{ namespace: 'default', name: 'web', kind: 'Deployment', drain: true }]);
  });

  it('not for a client that does not run the simulation (Neovim, Helix, Emacs): the link would fail when followed', () => {
    const text = workload('Deployment', '  replicas: 1\n');
    assert.ok(hover(text, 'kind: Deployment')?.includes('](command:kubeResilience.simulateWorkload?'));
    for (const where of ['kind: Deployment', 'replicas']) assert.doesNotMatch(hover(text, where, {}, { drainLinks: false }) ?? '', /command:/, where);
  });

  it('not where there is no finding', () => {
    const doc = workload('Deployment', '  replicas: 2\n').replace('              port: http\n', '              port: http\n            periodSeconds: 5\n');
    assert.doesNotMatch(hover(doc, 'periodSeconds')!, /Simulate a drain/);
  });
});
