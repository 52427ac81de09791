import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  describePlacement,
  nodeLossTolerationSeconds,
  matchesNodeSelector,
  matchesRequiredNodeAffinity,
  nodeAllocatable,
  placePod,
  placementInput,
  podRequests,
  toleratesTaint,
  untoleratedTaints,
} from '../../server/src/manifest/scheduling';
import { gpuNode, node } from '../cluster-fixtures';

const gpuTaint = { key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' };

describe('taints and tolerations', () => {
  it('Equal needs the same key and value; the operator defaults to Equal', () => {
    assert.equal(toleratesTaint({ key: 'nvidia.com/gpu', value: 'present' }, gpuTaint), true);
    assert.equal(toleratesTaint({ key: 'nvidia.com/gpu', operator: 'Equal', value: 'absent' }, gpuTaint), false);
    assert.equal(toleratesTaint({ key: 'nvidia.com/gpu' }, gpuTaint), false, 'an empty value does not equal "present"');
  });

  it('Exists matches any value of the key, and an empty key with Exists matches every taint', () => {
    assert.equal(toleratesTaint({ key: 'nvidia.com/gpu', operator: 'Exists' }, gpuTaint), true);
    assert.equal(toleratesTaint({ operator: 'Exists' }, gpuTaint), true);
    assert.equal(toleratesTaint({ operator: 'Exists', effect: 'NoExecute' }, gpuTaint), false, 'the effect still has to match');
    assert.equal(toleratesTaint({ key: '', operator: 'Equal' }, gpuTaint), false, 'an empty key only works with Exists');
  });

  it('an empty effect tolerates every effect; a different effect does not', () => {
    assert.equal(toleratesTaint({ key: 'nvidia.com/gpu', operator: 'Exists', effect: '' }, { ...gpuTaint, effect: 'NoExecute' }), true);
    assert.equal(toleratesTaint({ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }, { ...gpuTaint, effect: 'NoExecute' }), false);
  });

  it('PreferNoSchedule never blocks; NoSchedule and NoExecute do', () => {
    const taints = [
      { key: 'a', effect: 'PreferNoSchedule' },
      { key: 'b', effect: 'NoSchedule' },
      { key: 'c', effect: 'NoExecute' },
    ];
    assert.deepEqual(untoleratedTaints(taints, []).map((t) => t.key), ['b', 'c']);
    assert.deepEqual(untoleratedTaints(taints, [{ key: 'c', operator: 'Exists' }]).map((t) => t.key), ['b']);
  });
});

describe('node selection', () => {
  const labelled = node('n1', { labels: { 'node.kubernetes.io/instance-type': 'g5.xlarge', 'example.com/generation': '5', pool: 'gpu' } });

  it('nodeSelector needs every label with its value', () => {
    assert.equal(matchesNodeSelector({ pool: 'gpu' }, labelled.object.metadata.labels), true);
    assert.equal(matchesNodeSelector({ pool: 'gpu', zone: 'a' }, labelled.object.metadata.labels), false);
    assert.equal(matchesNodeSelector(undefined, labelled.object.metadata.labels), true);
  });

  const affinity = (...terms: unknown[]) => ({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } } } });

  it('nodeSelectorTerms are ORed, the expressions of one term ANDed', () => {
    const wrongPool = { matchExpressions: [{ key: 'pool', operator: 'In', values: ['cpu'] }] };
    const rightPool = { matchExpressions: [{ key: 'pool', operator: 'In', values: ['gpu'] }, { key: 'spot', operator: 'DoesNotExist' }] };
    const rightPoolButSpot = { matchExpressions: [{ key: 'pool', operator: 'In', values: ['gpu'] }, { key: 'pool', operator: 'Exists' }, { key: 'pool', operator: 'NotIn', values: ['gpu'] }] };
    assert.equal(matchesRequiredNodeAffinity(affinity(wrongPool, rightPool), labelled), true);
    assert.equal(matchesRequiredNodeAffinity(affinity(wrongPool, rightPoolButSpot), labelled), false);
  });

  it('Gt and Lt compare integers; a non-integer label never matches', () => {
    const gt = (v: string) => affinity({ matchExpressions: [{ key: 'example.com/generation', operator: 'Gt', values: [v] }] });
    const lt = (v: string) => affinity({ matchExpressions: [{ key: 'example.com/generation', operator: 'Lt', values: [v] }] });
    assert.equal(matchesRequiredNodeAffinity(gt('4'), labelled), true);
    assert.equal(matchesRequiredNodeAffinity(gt('5'), labelled), false);
    assert.equal(matchesRequiredNodeAffinity(lt('10'), labelled), true, '5 < 10 as numbers, not as text');
    assert.equal(matchesRequiredNodeAffinity(affinity({ matchExpressions: [{ key: 'pool', operator: 'Gt', values: ['1'] }] }), labelled), false);
  });

  it('matchFields on metadata.name picks nodes by name', () => {
    const byName = (op: string) => affinity({ matchFields: [{ key: 'metadata.name', operator: op, values: ['n1'] }] });
    assert.equal(matchesRequiredNodeAffinity(byName('In'), labelled), true);
    assert.equal(matchesRequiredNodeAffinity(byName('NotIn'), labelled), false);
  });

  it('an empty term, or an empty list of terms, matches no node; no affinity matches every node', () => {
    assert.equal(matchesRequiredNodeAffinity(affinity({}), labelled), false);
    assert.equal(matchesRequiredNodeAffinity(affinity(), labelled), false);
    assert.equal(matchesRequiredNodeAffinity({}, labelled), true);
  });
});

describe('pod requests', () => {
  it('sums the containers and takes the largest init container when it is bigger', () => {
    const spec = {
      initContainers: [{ name: 'migrate', resources: { requests: { cpu: '2', memory: '1Gi' } } }],
      containers: [
        { name: 'a', resources: { requests: { cpu: '500m', memory: '256Mi' } } },
        { name: 'b', resources: { requests: { cpu: '250m', memory: '256Mi' } } },
      ],
    };
    assert.deepEqual(podRequests(spec), { cpu: 2, memory: 2 ** 30 });
  });

  it('a limit without a request stands for the request (how extended resources are written)', () => {
    assert.deepEqual(podRequests({ containers: [{ name: 'a', resources: { limits: { 'nvidia.com/gpu': '1', cpu: '1' }, requests: { cpu: '100m' } } }] }), { 'nvidia.com/gpu': 1, cpu: 0.1 });
  });

  it('sidecars (init containers that keep running) add to the containers and to later init containers', () => {
    const spec = {
      initContainers: [
        { name: 'proxy', restartPolicy: 'Always', resources: { requests: { cpu: '1' } } },
        { name: 'setup', resources: { requests: { cpu: '2' } } },
      ],
      containers: [{ name: 'app', resources: { requests: { cpu: '1' } } }],
    };
    assert.deepEqual(podRequests(spec), { cpu: 3 }, 'setup runs beside the proxy: 1 + 2');
  });

  it('the pod\'s own requests (spec.resources) take precedence over its containers\' for CPU and memory; overhead adds to them', () => {
    const spec = {
      resources: { requests: { memory: '4Gi' } },
      overhead: { memory: '128Mi' },
      containers: [{ name: 'app', resources: { requests: { cpu: '250m', memory: '256Mi' }, limits: { 'nvidia.com/gpu': 1 } } }, { name: 'b' }],
    };
    assert.deepEqual(podRequests(spec), { cpu: 0.25, memory: 4 * 2 ** 30 + 128 * 2 ** 20, 'nvidia.com/gpu': 1 });
  });

  it('a pod-level limit without a request is the request when no container requests that resource; else the containers\' (the API server\'s defaults)', () => {
    const spec = { resources: { limits: { cpu: '2', memory: '4Gi' } }, containers: [{ name: 'app', resources: { requests: { cpu: '500m' } } }] };
    assert.deepEqual(podRequests(spec), { cpu: 0.5, memory: 4 * 2 ** 30 });
  });

  it('node allocatable reads quantities, falling back to capacity', () => {
    assert.deepEqual(nodeAllocatable(gpuNode('g', { gpus: 8 })), { cpu: 4, memory: 16 * 2 ** 30, pods: 110, 'nvidia.com/gpu': 8 });
    const capacityOnly = node('c');
    capacityOnly.object.status = { capacity: { cpu: '8' } };
    assert.deepEqual(nodeAllocatable(capacityOnly), { cpu: 8 });
  });
});

describe('placement over a cluster', () => {
  const cpuNodes = Array.from({ length: 9 }, (_, i) => node(`cpu-${i}`));
  const gpuNodes = Array.from({ length: 3 }, (_, i) => gpuNode(`gpu-${i}`));
  const nodes = [...cpuNodes, ...gpuNodes];
  const gpuPod = { containers: [{ name: 'train', resources: { limits: { 'nvidia.com/gpu': 1 } } }] };

  it('counts the nodes that fit and says why the others do not, most common first', () => {
    const placement = placePod({ spec: gpuPod }, nodes);
    assert.equal(placement.fitting.length, 0);
    assert.equal(describePlacement(placement), 'fits on 0 of 12 nodes: 9 without nvidia.com/gpu, 3 tainted nvidia.com/gpu=present:NoSchedule without a toleration');
  });

  it('a toleration opens the GPU nodes', () => {
    const placement = placePod({ spec: { ...gpuPod, tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists' }] } }, nodes);
    assert.deepEqual(placement.fitting.map((n) => n.name), ['gpu-0', 'gpu-1', 'gpu-2']);
  });

  it('compares requests with allocatable CPU and memory', () => {
    const big = { containers: [{ name: 'db', resources: { requests: { cpu: '6', memory: '8Gi' } } }] };
    assert.equal(describePlacement(placePod({ spec: big }, cpuNodes.slice(0, 2))), 'fits on 0 of 2 nodes: 2 with less than 6 CPU allocatable');
    const hungry = { containers: [{ name: 'db', resources: { requests: { memory: '20Gi' } } }] };
    assert.equal(describePlacement(placePod({ spec: hungry }, cpuNodes.slice(0, 1))), 'fits on 0 of 1 node: 1 with less than 20Gi memory allocatable');
  });

  it('weighs a pod-level request, not its containers\' (none here), against allocatable memory', () => {
    const big = { resources: { requests: { memory: '4Gi' }, limits: { memory: '4Gi' } }, containers: [{ name: 'app' }, { name: 'b' }] };
    const small = [node('small-0', { allocatable: { memory: '2Gi' } }), node('small-1', { allocatable: { memory: '2Gi' } })];
    assert.equal(describePlacement(placePod({ spec: big }, small)), 'fits on 0 of 2 nodes: 2 with less than 4Gi memory allocatable');
  });

  it('cordoned nodes and control-plane taints count against a pod; DaemonSet pods tolerate the cordon', () => {
    const mixed = [node('cordoned', { unschedulable: true }), node('cp', { controlPlane: true }), node('ok')];
    const plain = placePod({ spec: { containers: [{ name: 'a' }] } }, mixed);
    assert.equal(describePlacement(plain), 'fits on 1 of 3 nodes: 1 cordoned, 1 tainted node-role.kubernetes.io/control-plane:NoSchedule without a toleration');
    const daemon = placePod(placementInput('DaemonSet', { path: [], labels: {}, annotations: {}, spec: { containers: [{ name: 'a' }] } }), mixed);
    assert.deepEqual(daemon.fitting.map((n) => n.name), ['cordoned', 'ok']);
  });

  it('nodeSelector reasons name the missing label', () => {
    const placement = placePod({ spec: { nodeSelector: { pool: 'batch' }, containers: [{ name: 'a' }] } }, cpuNodes.slice(0, 2));
    assert.equal(describePlacement(placement), 'fits on 0 of 2 nodes: 2 without the label pool=batch (nodeSelector)');
  });
});

describe('nodeLossTolerationSeconds: how long a pod stays on a node the node controller tainted', () => {
  const unreachable = 'node.kubernetes.io/unreachable' as const;
  const spec = (...tolerations: object[]) => ({ tolerations });

  it('is its matching toleration\'s seconds, for ever without them, and the admission default (undefined) without one', () => {
    assert.equal(nodeLossTolerationSeconds(spec({ key: unreachable, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 }), unreachable), 30);
    assert.equal(nodeLossTolerationSeconds(spec({ key: unreachable, operator: 'Exists', effect: 'NoExecute' }), unreachable), null);
    assert.equal(nodeLossTolerationSeconds(spec({ operator: 'Exists' }), unreachable), null, 'Exists without a key tolerates every taint');
    assert.equal(nodeLossTolerationSeconds({}, unreachable), undefined);
  });

  it('of several matching tolerations, takes the first, as the taint manager does (GetMatchingTolerations keeps the first that tolerates each taint)', () => {
    const timed = (seconds: number) => ({ key: unreachable, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: seconds });
    assert.equal(nodeLossTolerationSeconds(spec({ operator: 'Exists' }, timed(60)), unreachable), null);
    assert.equal(nodeLossTolerationSeconds(spec(timed(600), timed(60)), unreachable), 600);
    assert.equal(nodeLossTolerationSeconds(spec(timed(30), { operator: 'Exists' }), unreachable), 30, 'a later toleration without seconds is not the one matched: not for ever');
  });

  it('does not take a toleration of another taint, of another effect, or of the other node-loss taint', () => {
    assert.equal(nodeLossTolerationSeconds(spec({ key: unreachable, operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 30 }), unreachable), undefined);
    assert.equal(nodeLossTolerationSeconds(spec({ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 }), unreachable), undefined);
    assert.equal(nodeLossTolerationSeconds(spec({ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 }), unreachable), undefined);
    assert.equal(nodeLossTolerationSeconds(spec({ key: unreachable, operator: 'Equal', value: 'x', effect: 'NoExecute', tolerationSeconds: 30 }), unreachable), undefined, 'the taint has no value');
  });
});
