import { kubeletMemoryEvictionOff } from '../../server/src/rules/kubelet-memory-eviction-off';
import { ruleTester } from './rule-tester';

const config = (body: string) => `apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
kubeReserved:
  memory: 1465Mi
${body}`;

const HEADLINE = 'KubeletConfiguration turns memory eviction off: the kubelet never evicts pods for memory.';
const TAIL =
  "when pods exhaust a node's memory only the kernel's OOM killer acts, which can stall the kubelet and the container runtime until the node goes NotReady with every pod on it. Set memory.available: 100Mi (the default) or more.";

ruleTester(kubeletMemoryEvictionOff, {
  valid: [
    { name: 'no evictionHard: the default 100Mi holds', code: config('') },
    { name: 'memory.available written', code: config('evictionHard:\n  memory.available: 500Mi\n  nodefs.available: "10%"\n') },
    { name: 'thresholds left out merge with the defaults', code: config('mergeDefaultEvictionSettings: true\nevictionHard:\n  nodefs.available: "5%"\n') },
    { name: 'an empty evictionHard is no threshold written', code: config('evictionHard: {}\n') },
  ],
  invalid: [
    {
      name: 'evictionHard without memory.available: the default is added back, comments kept',
      code: config('# disk thresholds tuned for small root disks\nevictionHard:\n  nodefs.available: "10%"\n  imagefs.available: "15%"\n'),
      findings: [
        {
          at: 'evictionHard',
          message: `${HEADLINE} It sets evictionHard (nodefs.available, imagefs.available) without memory.available: once one hard threshold is written, the kubelet sets those left out to zero instead of their defaults (mergeDefaultEvictionSettings is not true), so memory.available is 0, and so is nodefs.inodesFree: ${TAIL}`,
        },
      ],
      output: config('# disk thresholds tuned for small root disks\nevictionHard:\n  nodefs.available: "10%"\n  imagefs.available: "15%"\n  memory.available: 100Mi\n'),
    },
    {
      name: 'memory.available of 0%: replaced by the default',
      code: config('evictionHard:\n  memory.available: "0%"\n  nodefs.available: "10%"\n  imagefs.available: "15%"\n  nodefs.inodesFree: "5%"\n'),
      findings: [{ at: 'memory.available', message: `${HEADLINE} It sets evictionHard memory.available to 0%: ${TAIL}` }],
      output: config('evictionHard:\n  memory.available: "100Mi"\n  nodefs.available: "10%"\n  imagefs.available: "15%"\n  nodefs.inodesFree: "5%"\n'),
    },
  ],
});
