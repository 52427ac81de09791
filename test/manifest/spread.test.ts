import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { otherNamespacesLookedAt, spreadsAcrossFailureDomains } from '../../server/src/manifest/spread';

const labels = { app: 'a' };
const constraint = (topologyKey: string) => ({ topologySpreadConstraints: [{ maxSkew: 1, topologyKey, whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: labels } }] });

describe('spreadsAcrossFailureDomains', () => {
  for (const key of ['kubernetes.io/hostname', 'topology.kubernetes.io/zone', 'topology.kubernetes.io/region', 'failure-domain.beta.kubernetes.io/region']) {
    it(`a spread on ${key} puts the pods on different nodes`, () => assert.equal(spreadsAcrossFailureDomains(constraint(key), labels, 'prod'), true));
  }
  it('a spread on a key that is no failure domain does not', () => assert.equal(spreadsAcrossFailureDomains(constraint('node.kubernetes.io/instance-type'), labels, 'prod'), false));
});

describe('otherNamespacesLookedAt', () => {
  const antiAffinity = (where: object) => ({ affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: labels }, ...where }] } } });
  const name = 'kubernetes.io/metadata.name';
  const cases: [string, object, ReturnType<typeof otherNamespacesLookedAt>][] = [
    ['no namespaces: its own', {}, { names: [], selectors: [] }],
    ['a list without its own', { namespaces: ['cache'] }, { names: ['cache'], selectors: [] }],
    ['a selector naming another namespace, as a name', { namespaceSelector: { matchLabels: { [name]: 'cache' } } }, { names: ['cache'], selectors: [] }],
    ['a selector naming others by In, as names', { namespaceSelector: { matchExpressions: [{ key: name, operator: 'In', values: ['cache', 'search'] }] } }, { names: ['cache', 'search'], selectors: [] }],
    ['a selector leaving out its own (NotIn), as the selector', { namespaceSelector: { matchExpressions: [{ key: name, operator: 'NotIn', values: ['prod'] }] } }, { names: [], selectors: [{ matchExpressions: [{ key: name, operator: 'NotIn', values: ['prod'] }] }] }],
    ['a name that leaves it out beside labels not in view', { namespaceSelector: { matchLabels: { [name]: 'cache', team: 'shop' } } }, { names: [], selectors: [{ matchLabels: { [name]: 'cache', team: 'shop' } }] }],
    ['labels not in view alone may take it in', { namespaceSelector: { matchLabels: { team: 'shop' } } }, { names: [], selectors: [] }],
    ['its own name beside labels not in view may take it in', { namespaceSelector: { matchLabels: { [name]: 'prod', team: 'shop' } } }, { names: [], selectors: [] }],
    ['a list or a selector with its own takes it in', { namespaces: ['cache'], namespaceSelector: { matchLabels: { [name]: 'prod' } } }, { names: [], selectors: [] }],
  ];
  for (const [title, where, expected] of cases) it(title, () => assert.deepEqual(otherNamespacesLookedAt(antiAffinity(where), labels, 'prod'), expected));
});
