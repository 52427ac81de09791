import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { heldTogetherBy, idleSpreadConstraints, otherNamespacesLookedAt, spreadsAcrossFailureDomains } from '../../server/src/manifest/spread';

const labels = { app: 'a' };
const zoneTerm = { topologyKey: 'topology.kubernetes.io/zone', labelSelector: { matchLabels: labels } };
const together = (topologyKey: string) => ({ affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey, labelSelector: { matchLabels: labels } }] } } });
const skewed = (maxSkew: unknown, whenUnsatisfiable = 'DoNotSchedule') => ({ topologySpreadConstraints: [{ maxSkew, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable, labelSelector: { matchLabels: labels } }] });
const constraint = (topologyKey: string) => ({ topologySpreadConstraints: [{ maxSkew: 1, topologyKey, whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: labels } }] });

describe('spreadsAcrossFailureDomains', () => {
  for (const key of ['kubernetes.io/hostname', 'topology.kubernetes.io/zone', 'topology.kubernetes.io/region', 'failure-domain.beta.kubernetes.io/region']) {
    it(`a spread on ${key} puts the pods on different nodes`, () => assert.equal(spreadsAcrossFailureDomains(constraint(key), labels, 'prod', 3), true));
  }
  it('a spread on a key that is no failure domain does not', () => assert.equal(spreadsAcrossFailureDomains(constraint('node.kubernetes.io/instance-type'), labels, 'prod', 3), false));
  it('no spread holds against a required affinity to its own pods on the hostname', () => {
    for (const key of ['kubernetes.io/hostname', 'topology.kubernetes.io/zone']) assert.equal(spreadsAcrossFailureDomains({ ...constraint(key), ...together('kubernetes.io/hostname') }, labels, 'prod', 3), false, key);
  });
  it('held in one zone, only a spread over nodes counts', () => {
    assert.equal(spreadsAcrossFailureDomains({ ...constraint('kubernetes.io/hostname'), ...together('topology.kubernetes.io/zone') }, labels, 'prod', 3), true);
    for (const key of ['topology.kubernetes.io/zone', 'topology.kubernetes.io/region']) assert.equal(spreadsAcrossFailureDomains({ ...constraint(key), ...together('topology.kubernetes.io/zone') }, labels, 'prod', 3), false, key);
  });
  it('held in one region, a spread over zones counts', () => assert.equal(spreadsAcrossFailureDomains({ ...constraint('topology.kubernetes.io/zone'), ...together('topology.kubernetes.io/region') }, labels, 'prod', 3), true));
  it('a maxSkew below the replicas spreads them, one at or above lets them all share a domain', () => {
    for (const whenUnsatisfiable of ['DoNotSchedule', 'ScheduleAnyway']) {
      assert.equal(spreadsAcrossFailureDomains(skewed(2, whenUnsatisfiable), labels, 'prod', 3), true, whenUnsatisfiable);
      assert.equal(spreadsAcrossFailureDomains(skewed(3, whenUnsatisfiable), labels, 'prod', 3), false, whenUnsatisfiable);
    }
  });
  it('a single pod has nothing to spread: any maxSkew the API server takes counts', () => assert.equal(spreadsAcrossFailureDomains(skewed(3), labels, 'prod', 1), true));
  it('a maxSkew the API server refuses spreads nothing', () => {
    for (const maxSkew of [0, -1, 1.5, '1', undefined, null]) assert.equal(spreadsAcrossFailureDomains(skewed(maxSkew), labels, 'prod', 3), false, String(maxSkew));
  });
});

describe('idleSpreadConstraints', () => {
  const entry = (maxSkew: unknown, topologyKey: string, selector = labels) => ({ maxSkew, topologyKey, whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: selector } });
  it('the refused first, then the narrowest domain, each at its index', () => {
    const spec = {
      topologySpreadConstraints: [entry(5, 'topology.kubernetes.io/zone'), entry(4, 'kubernetes.io/hostname'), entry('1', 'topology.kubernetes.io/region'), entry(2, 'kubernetes.io/hostname')],
    };
    assert.deepEqual(
      idleSpreadConstraints(spec, labels, 'prod', 3).map(({ index, maxSkew, refused }) => ({ index, maxSkew, refused })),
      [
        { index: 2, maxSkew: '1', refused: true },
        { index: 1, maxSkew: 4, refused: false },
        { index: 0, maxSkew: 5, refused: false },
      ],
    );
  });
  it('none on other pods, or on a key that is no failure domain', () => {
    const spec = { topologySpreadConstraints: [entry(5, 'kubernetes.io/hostname', { app: 'cache' }), entry(5, 'node.kubernetes.io/instance-type')] };
    assert.deepEqual(idleSpreadConstraints(spec, labels, 'prod', 3), []);
  });
});

describe('heldTogetherBy', () => {
  it('nothing without required pod affinity', () => assert.equal(heldTogetherBy(constraint('kubernetes.io/hostname'), labels, 'prod'), undefined));
  it('the narrowest required term on its own pods, with its index', () => {
    const spec = { affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [zoneTerm, { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: labels } }] } } };
    assert.deepEqual(heldTogetherBy(spec, labels, 'prod'), { term: spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[1], index: 1, domain: 'node' });
  });
  const notHeld: [string, object][] = [
    ['a term on other pods', { labelSelector: { matchLabels: { app: 'cache' } } }],
    ['a term with no labelSelector', { labelSelector: undefined }],
    ['a term on a key that is no failure domain', { topologyKey: 'node.kubernetes.io/instance-type' }],
    ['a term that looks in other namespaces', { namespaces: ['cache'] }],
    ['a term whose namespace selector reads labels manifests do not show', { namespaceSelector: { matchLabels: { team: 'shop' } } }],
  ];
  for (const [title, change] of notHeld) {
    it(`not by ${title}`, () => assert.equal(heldTogetherBy({ affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ ...zoneTerm, ...change }] } } }, labels, 'prod'), undefined));
  }
  it('by a term whose namespace selector names its own namespace', () => {
    const term = { ...zoneTerm, namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'prod' } } };
    assert.equal(heldTogetherBy({ affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term] } } }, labels, 'prod')?.domain, 'zone');
  });
  it('not by preferred affinity, a wish', () => {
    const spec = { affinity: { podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, podAffinityTerm: zoneTerm }] } } };
    assert.equal(heldTogetherBy(spec, labels, 'prod'), undefined);
  });
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
