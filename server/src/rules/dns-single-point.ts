import type { ClusterInfo } from '../cluster/types';
import type { Fix, TextEdit } from '../fixes/edit';
import { setField } from '../fixes/yaml-edit';
import { describeEveryPod, describeRunning, type Inventory } from '../inventory/inventory';
import type { Resource } from '../manifest/parse';
import { heldTogetherBy, HOSTNAME_TOPOLOGY, idleSpreadConstraints, spreadsAcrossFailureDomains } from '../manifest/spread';
import { describeResource, isPodReady, podTemplateOf, type PodTemplate } from '../manifest/workload';
import { hostnameSpreadEdits } from './hostname-spread';
import { idleSpreadConstraintFix, idleSpreadConstraintReport, LOWERED_SKEW_UNSAFE } from './idle-spread-constraint';
import type { Report, Rule } from './types';
import { plural } from '../words';

const DNS_NAMES = ['coredns', 'kube-dns'];

export function isClusterDns(resource: Resource): boolean {
  return resource.kind === 'Deployment' && resource.namespace === 'kube-system' && DNS_NAMES.includes(resource.name ?? '');
}

const WHY =
  'a running CoreDNS keeps answering during a control-plane outage from its informer cache, but one that restarts cannot sync with the API and answers SERVFAIL for cluster names, and one that dies is not replaced';

function parseJson(text: unknown): any {
  if (typeof text !== 'string') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The cluster-proportional-autoscaler that sizes the DNS Deployment (kube-dns-autoscaler), and
 * whether its parameters keep at least 2 replicas.
 */
function dnsAutoscaler(dns: Resource, inventory: Inventory): { name: string; keepsTwo: boolean } | undefined {
  for (const candidate of inventory.inNamespace('kube-system', 'Deployment')) {
    const args: string[] = (podTemplateOf(candidate)?.spec.containers ?? []).flatMap((c: any) => [...(Array.isArray(c?.command) ? c.command : []), ...(Array.isArray(c?.args) ? c.args : [])]).map(String);
    const target = args.find((a) => a.startsWith('--target='))?.slice('--target='.length).toLowerCase();
    if (target !== `deployment/${dns.name}`) continue;
    const configMapName = args.find((a) => a.startsWith('--configmap='))?.slice('--configmap='.length);
    const configMap = inventory.inNamespace('kube-system', 'ConfigMap').find((c) => c.name === configMapName);
    const defaults = parseJson(args.find((a) => a.startsWith('--default-params='))?.slice('--default-params='.length));
    const params = configMap ? { linear: parseJson(configMap.object?.data?.linear), ladder: parseJson(configMap.object?.data?.ladder) } : defaults;
    const linear = params?.linear;
    const keepsTwo = !!linear && (linear.preventSinglePointFailure === true || (typeof linear.min === 'number' && linear.min >= 2));
    return { name: candidate.name ?? 'autoscaler', keepsTwo };
  }
  return undefined;
}

function tooFewReplicas(dns: Resource, inventory: Inventory, where: string): Report | undefined {
  const replicas = inventory.effectiveReplicas(dns);
  if (replicas.value >= 2 || (replicas.source === 'spec' && replicas.value === 0)) return undefined;
  const autoscaler = dnsAutoscaler(dns, inventory);
  if (autoscaler?.keepsTwo) return undefined;
  const scaled = autoscaler ? ` (${autoscaler.name} sizes it, but its parameters let it go down to 1: set preventSinglePointFailure)` : '';
  const template = podTemplateOf(dns);
  const fixes: (Fix | undefined)[] = [];
  // Its replicas field sets nothing that an autoscaler's floor or a paused-replicas sets.
  if (dns.file && (replicas.source === 'spec' || replicas.source === 'default') && template) {
    const edits = setField(dns, ['spec', 'replicas'], 2, 'start');
    const spread = spreadAtTwo(dns, template);
    if (edits && spread) fixes.push({ title: 'Run 2 DNS replicas on different nodes', preferred: true, unsafe: spread.unsafe, edits: [...edits, ...spread.edits] });
  }
  return {
    resource: dns,
    path: replicas.source === 'spec' ? ['spec', 'replicas'] : [],
    message: `Cluster DNS ${describeResource(dns)}${where} runs 1 pod: when it restarts, every DNS lookup fails. It runs ${describeRunning(replicas)}${scaled}: when that pod restarts, is evicted or its node dies, every DNS lookup in the cluster fails until a new one is ready; ${WHY}.`,
    fixes,
  };
}

/**
 * The edits that spread DNS pods once it runs the 2 replicas the fix writes: none when something spreads them already;
 * a maxSkew the API server refuses set where it is written (the workload runs no pod until it is mended); else the
 * hostname constraint. Undefined when its own affinity holds the pods on one node, which no spread changes.
 */
function spreadAtTwo(dns: Resource, template: PodTemplate): { edits: TextEdit[]; unsafe?: string } | undefined {
  if (spreadsAcrossFailureDomains(template.spec, template.labels, dns.namespace, 2)) return { edits: [] };
  if (heldTogetherBy(template.spec, template.labels, dns.namespace)?.domain === 'node') return undefined;
  const refused = idleSpreadConstraints(template.spec, template.labels, dns.namespace, 2).find((c) => c.refused);
  if (refused) return idleSpreadConstraintFix(dns, template.path, 2, refused);
  const edits = hostnameSpreadEdits(dns, template);
  return edits && { edits };
}

/** A DNS Deployment of several replicas that nothing keeps apart: they may all share one node. */
function unspread(dns: Resource, inventory: Inventory): Report | undefined {
  const template = podTemplateOf(dns);
  const replicas = inventory.effectiveReplicas(dns);
  if (!template || replicas.value < 2 || spreadsAcrossFailureDomains(template.spec, template.labels, dns.namespace, replicas.value)) return undefined;
  const held = heldTogetherBy(template.spec, template.labels, dns.namespace)?.domain === 'node';
  const idle = held ? [] : idleSpreadConstraints(template.spec, template.labels, dns.namespace, replicas.value);
  // Constraints written to spread them that their maxSkew keeps from it: said, and fixed, at that maxSkew.
  if (idle.length) return idleSpreadConstraintReport(dns, template.path, replicas, idle[0], []);
  const why = held
    ? `its required pod affinity on ${HOSTNAME_TOPOLOGY} selects its own pods: they must run on one node`
    : `nothing spreads them across nodes (no topology spread constraint or pod anti-affinity on ${HOSTNAME_TOPOLOGY} that selects its own pods): they may run on one node`;
  return {
    resource: dns,
    path: replicas.source === 'spec' ? ['spec', 'replicas'] : [],
    message: `Cluster DNS ${describeResource(dns)}: ${describeEveryPod(replicas.value)} ${held ? 'must' : 'may'} share one node and fail with it. It runs ${describeRunning(replicas)} and ${why}, and when that node dies or reboots every DNS lookup in the cluster fails until they are rescheduled; ${WHY}.`,
    fixes: () =>
      held
        ? []
        : [
            {
              title: 'Spread the DNS pods across nodes (topologySpreadConstraints, ScheduleAnyway)',
              preferred: true,
              edits: hostnameSpreadEdits(dns, template) ?? [],
            },
          ],
  };
}

/** Where the live DNS pods run: all on one node, or all on control-plane nodes, is one failure away from no DNS. */
function badPlacement(dns: Resource, inventory: Inventory, cluster: ClusterInfo): Report | undefined {
  if (cluster.missing.some((m) => /^pods?$/i.test(m.resource))) return undefined;
  const all = inventory.podsOf(dns);
  if (all.length === 0) return undefined; // pods of kube-system not read: nothing to say
  const ready = all.filter(isPodReady);
  const where = ` in cluster ${cluster.name}`;
  if (ready.length === 0) {
    return { resource: dns, message: `Cluster DNS ${describeResource(dns)}${where} has no ready pod: DNS lookups in the cluster fail now.` };
  }
  const nodes = [...new Set(ready.map((p) => String(p.object?.spec?.nodeName ?? '?')))];
  const pods = plural(ready.length, 'ready pod');
  if (nodes.length === 1) {
    const together = ready.length === 1 ? 'on' : ready.length === 2 ? 'both on' : 'all on';
    const they = ready.length === 1 ? 'it is' : 'they are';
    return {
      resource: dns,
      message: `Cluster DNS ${describeResource(dns)}${where} has ${pods}, ${together} node ${nodes[0]}. When that node dies or reboots, every DNS lookup in the cluster fails until ${they} rescheduled, and during a control-plane outage ${they} not rescheduled at all; ${WHY}.`,
    };
  }
  const controlPlane = new Set(cluster.topology.controlPlaneNodes);
  if (nodes.every((n) => controlPlane.has(n))) {
    return {
      resource: dns,
      message: `Cluster DNS ${describeResource(dns)}${where} runs only on control-plane nodes (${nodes.join(', ')}). Its ${pods} are there: when the control plane goes down with its nodes, cluster DNS goes with it and cannot come back until the API does; ${WHY}.`,
    };
  }
  return undefined;
}

export const dnsSinglePoint: Rule = {
  meta: {
    id: 'dns-single-point',
    severity: 'warning',
    scenario: 'control-plane',
    title: 'Cluster DNS that one failure takes down',
    description:
      'Every Service lookup in the cluster goes through the cluster DNS Deployment (`coredns` or `kube-dns` in `kube-system`). With fewer than 2 replicas, with replicas that nothing spreads across nodes (no topology spread constraint with a `maxSkew` below its replicas, or pod anti-affinity, on `kubernetes.io/hostname` selecting its own pods), or (in a live cluster) with all ready pods on one node or all on control-plane nodes, one pod restart or one node failure stops name resolution everywhere. During a control-plane outage it is worse: a running CoreDNS keeps answering from its informer cache (response-cache expiry does not matter), but a CoreDNS that restarts cannot sync with the API and answers SERVFAIL for cluster names, and one that dies is not replaced; if all of them sit on the control-plane nodes, they die with it. A cluster-proportional-autoscaler (`kube-dns-autoscaler`) that keeps 2 replicas (`preventSinglePointFailure` or `min` ≥ 2) counts.',
    fix: 'Sets `replicas: 2` and, when the pods are not spread yet, adds a `kubernetes.io/hostname` topology spread constraint as `replicas-not-spread` does (the constraint alone for 2 or more replicas that nothing spreads; for a constraint there whose `maxSkew` is too loose or refused, that `maxSkew` set as `replicas-not-spread` does).',
    unsafeFixes: LOWERED_SKEW_UNSAFE,
    example: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: coredns
  namespace: kube-system
spec:
  replicas: 1
  selector:
    matchLabels:
      k8s-app: kube-dns
  template:
    metadata:
      labels:
        k8s-app: kube-dns
    spec:
      containers:
        - name: coredns
          image: registry.k8s.io/coredns/coredns:v1.12.0
          args: [-conf, /etc/coredns/Corefile]
`,
  },
  check({ file, resources, inventory, cluster, report }) {
    for (const resource of resources) {
      if (!isClusterDns(resource)) continue;
      const where = file ? '' : ` in cluster ${cluster?.name ?? ''}`;
      const finding = tooFewReplicas(resource, inventory, where) ?? (file ? unspread(resource, inventory) : cluster ? badPlacement(resource, inventory, cluster) : undefined);
      if (finding) report(finding);
    }
  },
};
