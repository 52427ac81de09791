import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { demoCluster } from '../../server/src/cluster/demo';
import { parseManifest, type Resource } from '../../server/src/manifest/parse';

const demo = demoCluster();
const of = (kind: string) => demo.resources.filter((r) => r.kind === kind);
const nodeNames = new Set(of('Node').map((n) => n.name));
const podsOf = (namespace: string, prefix: string) => of('Pod').filter((p) => p.namespace === namespace && p.name!.startsWith(prefix));

describe('the embedded demo cluster', () => {
  it('has one control-plane node with stacked etcd, mirrored as kubeadm static pods', () => {
    assert.equal(demo.source, 'demo');
    assert.equal(demo.topology.controlPlaneCount, 1);
    for (const component of ['kube-apiserver', 'etcd', 'kube-controller-manager', 'kube-scheduler']) {
      const pod = of('Pod').find((p) => p.name === `${component}-cp-1`);
      assert.ok(pod, component);
      assert.equal(pod.namespace, 'kube-system');
      assert.deepEqual(pod.object.metadata.labels, { component, tier: 'control-plane' });
      assert.equal(pod.object.metadata.annotations['kubernetes.io/config.source'], 'file');
      assert.ok(pod.object.metadata.annotations['kubernetes.io/config.mirror']);
    }
  });

  it('has three workers over two zones and a GPU node tainted nvidia.com/gpu=present:NoSchedule', () => {
    const workers = of('Node').filter((n) => !('node-role.kubernetes.io/control-plane' in n.object.metadata.labels) && !n.object.status.capacity['nvidia.com/gpu']);
    assert.equal(workers.length, 3);
    assert.equal(new Set(workers.map((w) => w.object.metadata.labels['topology.kubernetes.io/zone'])).size, 2);
    const gpu = of('Node').find((n) => n.object.status.capacity['nvidia.com/gpu']);
    assert.deepEqual(gpu?.object.spec.taints, [{ key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' }]);
  });

  it('runs both CoreDNS replicas on one worker', () => {
    const coredns = of('Pod').filter((p) => p.namespace === 'kube-system' && p.object.metadata.labels['k8s-app'] === 'kube-dns');
    assert.equal(coredns.length, 2);
    assert.equal(new Set(coredns.map((p) => p.object.spec.nodeName)).size, 1);
    assert.ok(demo.resources.some((r) => r.kind === 'ConfigMap' && r.name === 'coredns'));
    assert.ok(demo.resources.some((r) => r.kind === 'ConfigMap' && r.name === 'kubeadm-config'));
  });

  it('tells the product stories with placed pods', () => {
    const billing = of('Deployment').find((d) => d.name === 'billing')!;
    assert.equal(billing.object.spec.template.metadata.annotations['kube-resilience/startup-seconds'], '1200');
    assert.equal(podsOf('legacy', 'billing-').length, 3);
    assert.equal(podsOf('meet', 'video-bridge-').length, 2);
    assert.equal(podsOf('render', 'gpu-renderer-')[0].object.spec.nodeName, 'gpu-b1');
    assert.match(of('Deployment').find((d) => d.name === 'orders-api')!.object.spec.template.spec.containers[0].readinessProbe.httpGet.path, /db/);
    assert.equal(of('Deployment').find((d) => d.name === 'admin-console')!.object.spec.replicas, 1);
    for (const pod of of('Pod')) assert.ok(nodeNames.has(pod.object.spec.nodeName), `${pod.name} sits on a known node`);
  });

  it('names every pod once in its namespace, as a cluster does (three billing pods shared one name)', () => {
    const names = of('Pod').map((p) => `${p.namespace}/${p.name}`);
    assert.deepEqual(names.filter((n, i) => names.indexOf(n) !== i), []);
  });

  it('has manifests for the same stories in examples/', () => {
    const files = readdirSync('examples').filter((f) => /\.ya?ml$/.test(f));
    const workloads: Resource[] = files.flatMap((f) => parseManifest(f, readFileSync(join('examples', f), 'utf8')).resources);
    for (const name of ['billing', 'video-bridge', 'gpu-renderer', 'orders-api', 'admin-console']) {
      const inCluster = of('Deployment').find((d) => d.name === name)!;
      const inExamples = workloads.find((w) => w.kind === 'Deployment' && w.name === name);
      assert.ok(inExamples, `examples/ has Deployment ${name}`);
      assert.equal(inExamples.namespace, inCluster.namespace, name);
    }
  });
});
