import assert from 'node:assert/strict';
import { it } from 'node:test';
import { memoryUnbounded } from '../../server/src/rules/memory-unbounded';
import { cluster, clusterFindings, fromObject } from '../cluster-fixtures';
import { deployment } from './manifests';
import { ruleTester } from './rule-tester';

const web = (container: string) => deployment({ container });
const resources = (body: string) => `          resources:\n${body}`;
/** A LimitRange of the default namespace whose Container item says `item` (lines at its indentation). */
const limitRange = (item: string) => `apiVersion: v1\nkind: LimitRange\nmetadata:\n  name: memory\nspec:\n  limits:\n    - type: Container\n${item}`;
/** Pod-level resources (the pod template's `spec.resources`, Kubernetes 1.34+): lines at their indentation. */
const podResources = (body: string) => `      resources:\n${body}`;

ruleTester(memoryUnbounded, {
  valid: [
    { name: 'request and limit', code: web(resources('            requests:\n              memory: 256Mi\n            limits:\n              memory: 512Mi\n')) },
    { name: 'a kube-system add-on is the cluster operator\'s', code: deployment({ namespace: 'kube-system' }) },
    {
      name: 'a LimitRange in the namespace gives the defaults',
      code: web(''),
      files: { 'limits.yaml': 'apiVersion: v1\nkind: LimitRange\nmetadata:\n  name: memory\nspec:\n  limits:\n    - type: Container\n      default:\n        memory: 512Mi\n' },
    },
    {
      name: 'a LimitRange with only a max: the API server makes it the default limit, and that the default request',
      code: web(''),
      files: { 'limits.yaml': limitRange('      max:\n        memory: 1Gi\n') },
    },
    {
      name: 'a LimitRange of the live cluster gives the defaults as one in the workspace does',
      code: web(''),
      cluster: cluster([fromObject({ apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'memory', namespace: 'default' }, spec: { limits: [{ type: 'Container', default: { memory: '512Mi' } }] } })]),
    },
    { name: 'a one-shot Job sees no surge', code: 'apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: migrate\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n        - name: migrate\n          image: migrate:1\n' },
    { name: 'flow style', code: web('          resources: {requests: {memory: 1Gi}, limits: {memory: 1Gi}}\n') },
    {
      name: 'an init container that runs to its end before the app starts',
      code: deployment({ podSpec: '      initContainers:\n        - name: migrate\n          image: migrate:1\n', container: '          resources: {requests: {memory: 1Gi}, limits: {memory: 1Gi}}\n' }),
    },
    {
      name: 'a pod-level memory request and limit count and bound every container of the pod',
      code: 'apiVersion: v1\nkind: Pod\nmetadata: {name: big}\nspec:\n  resources: {requests: {memory: 4Gi}, limits: {memory: 4Gi}}\n  containers: [{name: app, image: example/app:1}, {name: b, image: example/b:1}]\n',
    },
    {
      name: 'a pod-level limit alone bounds the containers together, and the API server makes it the pod\'s request',
      code: deployment({ podSpec: podResources('        limits:\n          memory: 2Gi\n'), container: '        - name: sidecar\n          image: envoy\n' }),
    },
    {
      name: 'under a pod-level request, a container limit without a request is not reported: the pod\'s request is the one counted',
      code: deployment({ podSpec: podResources('        requests:\n          memory: 1Gi\n'), container: resources('            limits:\n              memory: 512Mi\n') }),
    },
  ],
  invalid: [
    {
      name: 'a pod-level request without a limit: the pod is counted, but a container without a limit can still exhaust its node',
      code: deployment({ podSpec: podResources('        requests:\n          memory: 4Gi\n'), container: resources('            limits:\n              memory: 512Mi\n') + '        - name: sidecar\n          image: envoy\n' }),
      findings: [
        {
          at: 'name',
          line: 23,
          message:
            "Deployment web, container sidecar: no memory limit: it can exhaust its node. The pod requests 4Gi of memory for all its containers (spec.resources), which the scheduler counts, but neither the pod nor the container sets a limit: under a surge the pod grows past its request until the node runs short, then the kubelet evicts pods using more than they request and the kernel's OOM killer may take neighbours first. Set a limit near its peak, for the container or for the pod.",
        },
      ],
      output: null,
    },
    {
      name: 'no resources at all: at the container name, no fix',
      code: web(''),
      findings: [
        {
          at: 'name',
          line: 15,
          message:
            "Deployment web: no memory request/limit: it can exhaust its node. The scheduler counts it as using no memory, so under a surge the node runs out, the kubelet evicts it among the first, and the kernel's OOM killer may take neighbours down with it. Set a request near its usual use and a limit near its peak.",
        },
      ],
      output: null,
    },
    {
      name: 'a LimitRange elsewhere, or one that sets only CPU, does not count',
      code: web(''),
      files: {
        'limits.yaml': 'apiVersion: v1\nkind: LimitRange\nmetadata:\n  name: memory\n  namespace: shop\nspec:\n  limits:\n    - type: Container\n      default:\n        memory: 512Mi\n---\napiVersion: v1\nkind: LimitRange\nmetadata:\n  name: cpu\nspec:\n  limits:\n    - type: Container\n      default:\n        cpu: 500m\n',
      },
      findings: [{ at: 'name', message: /^Deployment web: no memory request\/limit: it can exhaust its node\./ }],
    },
    {
      name: 'a LimitRange with only a default request: the container requests it, and has no limit',
      code: web(''),
      files: { 'limits.yaml': limitRange('      defaultRequest:\n        memory: 256Mi\n') },
      findings: [{ at: 'name', message: /^Deployment web: no memory limit: it can exhaust its node\. It requests 256Mi \(the default of LimitRange memory\) of memory and sets no limit:/ }],
      output: null,
    },
    {
      name: 'a LimitRange with only a min: the API server makes it the default request, and there is no limit',
      code: web(''),
      files: { 'limits.yaml': limitRange('      min:\n        memory: 64Mi\n') },
      findings: [{ at: 'name', message: /It requests 64Mi \(the default of LimitRange memory\) of memory and sets no limit/ }],
    },
    {
      name: 'a memory of 0 is none: no reservation, and no cgroup limit',
      code: web(resources('            requests:\n              memory: "0"\n            limits:\n              memory: 0Mi\n')),
      findings: [{ at: 'resources', message: /^Deployment web: no memory request\/limit \(a memory of 0 is none\): it can exhaust its node\./ }],
      output: null,
    },
    {
      name: 'a 0 written is not replaced by a LimitRange\'s default: a request of 0 under a limit is none, a limit of 0 is none',
      code: deployment({ container: resources('            requests:\n              memory: "0"\n            limits:\n              memory: 1Gi\n') + '        - name: b\n          image: nginx:1.27\n          resources:\n            requests:\n              memory: 256Mi\n            limits:\n              memory: "0"\n' }),
      files: { 'limits.yaml': limitRange('      default:\n        memory: 512Mi\n      defaultRequest:\n        memory: 256Mi\n') },
      findings: [
        { at: 'memory', message: 'Deployment web: no memory request: it requests 0, which is none, under a limit of 1Gi. The scheduler counts it as using no memory, so under a surge its node runs short and the kubelet evicts it among the first. Set a request near its usual use.' },
        { at: 'memory', message: /^Deployment web, container b: no memory limit: it can exhaust its node\. It requests 256Mi of memory and sets a limit of 0, which is none: / },
      ],
      output: null,
    },
    {
      name: 'CPU only',
      code: web(resources('            requests:\n              cpu: 100m\n')),
      findings: [{ at: 'resources', message: /^Deployment web: no memory request\/limit: it can exhaust its node\./ }],
      output: null,
    },
    {
      name: 'a request without a limit',
      code: web(resources('            requests:\n              memory: 268435456\n')),
      findings: [{ at: 'memory', message: /^Deployment web: no memory limit: it can exhaust its node\. It requests 268435456 \(256Mi\) of memory and sets no limit: under a surge it grows past its request/ }],
      output: null,
    },
    {
      name: 'a limit without a request: info, and the limit is copied',
      code: web(resources("            limits:\n              memory: '512Mi' # measured at peak\n")),
      findings: [{ at: 'memory', severity: 'info', message: 'Deployment web limits memory to 512Mi but requests none, so it requests 512Mi. The API server sets the request to the limit, and the scheduler reserves that; write the request down so that it is a decision.' }],
      output: web(resources("            limits:\n              memory: '512Mi' # measured at peak\n            requests:\n              memory: 512Mi\n")),
    },
    {
      name: 'a native sidecar (an init container that always restarts) runs beside the app for the pod\'s whole life',
      code: deployment({ podSpec: '      initContainers:\n        - name: proxy\n          image: envoy\n          restartPolicy: Always\n', container: '          resources: {requests: {memory: 1Gi}, limits: {memory: 1Gi}}\n' }),
      findings: [{ at: 'name', line: 15, message: /^Deployment web, container proxy: no memory request\/limit: it can exhaust its node\./ }],
      output: null,
    },
    {
      name: 'each container on its own',
      code: web(resources('            requests: {memory: 64Mi}\n            limits: {memory: 64Mi}\n') + '        - name: sidecar\n          image: envoy\n'),
      findings: [{ at: 'name', line: 20, message: /^Deployment web, container sidecar: no memory request\/limit: it can exhaust its node\./ }],
    },
  ],
});

it('memory-unbounded counts pods read from a cluster through their owner', () => {
  const owned = fromObject({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web-1', namespace: 'default', ownerReferences: [{ kind: 'ReplicaSet', name: 'web-5d8f', controller: true }] },
    spec: { containers: [{ name: 'web', image: 'nginx' }] },
  });
  assert.deepEqual(clusterFindings(memoryUnbounded, cluster([owned])).map((f) => f.message), []);
});
