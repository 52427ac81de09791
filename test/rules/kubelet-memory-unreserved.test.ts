import assert from 'node:assert/strict';
import { it } from 'node:test';
import { Inventory } from '../../server/src/inventory/inventory';
import { parseManifest } from '../../server/src/manifest/parse';
import { applyEdits } from '../../server/src/fixes/edit';
import { analyzeFile } from '../../server/src/rules/engine';
import { kubeletMemoryUnreserved } from '../../server/src/rules/kubelet-memory-unreserved';
import { ruleTester } from './rule-tester';

const config = (body: string) => `apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
${body}`;

ruleTester(kubeletMemoryUnreserved, {
  valid: [
    { name: 'kubeReserved memory', code: config('kubeReserved:\n  cpu: 100m\n  memory: 1465Mi\n') },
    { name: 'systemReserved memory only', code: config('systemReserved:\n  memory: 1Gi\n') },
    { name: 'a kubeadm ClusterConfiguration is not a kubelet configuration', code: 'apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\n' },
    { name: 'kind KubeletConfiguration of another API group', code: 'apiVersion: example.com/v1\nkind: KubeletConfiguration\n' },
  ],
  invalid: [
    {
      name: 'nothing reserved, default eviction threshold: the reservation is offered, not applied',
      code: config('cgroupDriver: systemd\n'),
      findings: [
        {
          at: 'kind: KubeletConfiguration',
          message:
            "KubeletConfiguration reserves no memory for the kubelet and runtime: pods can starve them. It sets no kubeReserved or systemReserved memory: a node's allocatable memory is its capacity minus only the hard eviction threshold (100Mi, the default), so the scheduler fills it with pod requests up to there, and the kubelet, the runtime and system daemons compete with those pods for the rest. Memory that runs out between two 10 s eviction checks is left to the kernel's OOM killer: the kubelet stalls, misses its heartbeats and the node goes NotReady with every pod on it. Reserve memory, e.g. kubeReserved memory 1465Mi (255Mi + 11Mi × maxPods 110, as EKS node images do).",
        },
      ],
      output: null,
      unsafeOutput: config('cgroupDriver: systemd\nkubeReserved:\n  memory: 1465Mi\n'),
    },
    {
      name: 'kubeReserved with CPU only, maxPods 30, evictionHard without memory: the numbers follow',
      code: config('maxPods: 30\nkubeReserved:\n  cpu: 100m\nevictionHard:\n  nodefs.available: "10%"\n'),
      findings: [{ at: 'kubeReserved', message: /hard eviction threshold \(none here: evictionHard leaves memory\.available out\).*kubeReserved memory 585Mi \(255Mi \+ 11Mi × maxPods 30, as EKS node images do\)\.$/ }],
    },
  ],
});

it('kubelet-memory-unreserved: the offered reservation writes kubeReserved.memory and silences the finding', () => {
  const text = config('maxPods: 30\nkubeReserved:\n  cpu: 100m\n');
  const inventory = new Inventory();
  const file = parseManifest('file:///k.yaml', text);
  inventory.setFile(file);
  const [finding] = analyzeFile(file, inventory, { rules: [kubeletMemoryUnreserved] });
  const fix = finding.fixes.find((f) => f.title.startsWith('Reserve 585Mi'))!;
  assert.equal(fix.unsafe, "every node's allocatable memory drops by 585Mi, so pods that fit before may not", 'applied only with --unsafe-fixes: it lowers every node\'s allocatable memory');
  const fixed = applyEdits(text, fix.edits);
  assert.equal(fixed, config('maxPods: 30\nkubeReserved:\n  cpu: 100m\n  memory: 585Mi\n'));
  const after = parseManifest('file:///k.yaml', fixed);
  inventory.setFile(after);
  assert.deepEqual(analyzeFile(after, inventory, { rules: [kubeletMemoryUnreserved] }), []);
});
