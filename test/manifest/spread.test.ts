import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { spreadsAcrossFailureDomains } from '../../server/src/manifest/spread';

const labels = { app: 'a' };
const constraint = (topologyKey: string) => ({ topologySpreadConstraints: [{ maxSkew: 1, topologyKey, whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: labels } }] });

describe('spreadsAcrossFailureDomains', () => {
  for (const key of ['kubernetes.io/hostname', 'topology.kubernetes.io/zone', 'topology.kubernetes.io/region', 'failure-domain.beta.kubernetes.io/region']) {
    it(`a spread on ${key} puts the pods on different nodes`, () => assert.equal(spreadsAcrossFailureDomains(constraint(key), labels, 'prod'), true));
  }
  it('a spread on a key that is no failure domain does not', () => assert.equal(spreadsAcrossFailureDomains(constraint('node.kubernetes.io/instance-type'), labels, 'prod'), false));
});
