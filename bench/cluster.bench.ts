/* eslint-disable @typescript-eslint/no-explicit-any */
// Scale benchmark of cluster reading: 5,000 nodes and 150,000 pods served by the HTTPS fake API server.
// Reports the time and peak memory of `kube-resilience snapshot` (read + write) against a baseline
// measured in the same run: a bare paged GET of the same lists that keeps every JSON.parse'd item.
// Each measurement runs in its own process so that peaks do not mix. Run: npx tsx bench/cluster.bench.ts
import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import https from 'node:https';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { peakRssBytes, report } from './peer';

const NODES = Number(process.env.BENCH_NODES ?? 5_000);
const PODS = Number(process.env.BENCH_PODS ?? 150_000);
const PODS_PER_DEPLOYMENT = 10;
const NAMESPACES = 500;
const PAGE = 500;

// ---------------------------------------------------------------- the generated cluster

const TIME = '2026-11-20T08:15:42Z';

function managedFields(manager: string, subresource?: string): any {
  return {
    manager,
    operation: 'Update',
    apiVersion: 'v1',
    time: TIME,
    fieldsType: 'FieldsV1',
    ...(subresource ? { subresource } : {}),
    fieldsV1: subresource
      ? { 'f:status': { 'f:conditions': { 'k:{"type":"ContainersReady"}': { '.': {}, 'f:lastProbeTime': {}, 'f:lastTransitionTime': {}, 'f:status': {}, 'f:type': {} }, 'k:{"type":"Ready"}': { '.': {}, 'f:lastProbeTime': {}, 'f:status': {}, 'f:type': {} } }, 'f:containerStatuses': {}, 'f:hostIP': {}, 'f:phase': {}, 'f:podIP': {}, 'f:startTime': {} } }
      : { 'f:metadata': { 'f:generateName': {}, 'f:labels': { '.': {}, 'f:app': {}, 'f:pod-template-hash': {} }, 'f:ownerReferences': { '.': {}, 'k:{"uid":"x"}': {} } }, 'f:spec': { 'f:containers': { 'k:{"name":"app"}': { '.': {}, 'f:env': {}, 'f:image': {}, 'f:livenessProbe': {}, 'f:ports': {}, 'f:readinessProbe': {}, 'f:resources': {} } }, 'f:dnsPolicy': {}, 'f:restartPolicy': {} } },
  };
}

function pod(index: number): any {
  const deployment = Math.floor(index / PODS_PER_DEPLOYMENT);
  const namespace = `team-${deployment % NAMESPACES}`;
  const app = `app-${deployment}`;
  const hash = `7f${(deployment * 7919).toString(36).padStart(8, '0')}`;
  const nodeName = `node-${index % NODES}`;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${app}-${hash}-${index.toString(36).padStart(5, '0')}`,
      generateName: `${app}-${hash}-`,
      namespace,
      uid: `0c5a${index.toString(16).padStart(8, '0')}-1b2c-4d5e-8f90-a1b2c3d4e5f6`,
      resourceVersion: String(1_000_000 + index),
      creationTimestamp: TIME,
      labels: { app, 'pod-template-hash': hash, team: namespace },
      annotations: { 'kubectl.kubernetes.io/restartedAt': TIME, 'prometheus.io/scrape': 'true', 'prometheus.io/port': '9090' },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `${app}-${hash}`, uid: `rs-${deployment}`, controller: true, blockOwnerDeletion: true }],
      managedFields: [managedFields('kube-controller-manager'), managedFields('kubelet', 'status')],
    },
    spec: {
      volumes: [{ name: `kube-api-access-${hash.slice(0, 5)}`, projected: { sources: [{ serviceAccountToken: { expirationSeconds: 3607, path: 'token' } }, { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } }, { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } }], defaultMode: 420 } }],
      containers: [
        {
          name: 'app',
          image: `registry.example.com/${namespace}/${app}:1.${deployment % 40}.0`,
          ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }, { name: 'metrics', containerPort: 9090, protocol: 'TCP' }],
          env: Array.from({ length: 8 }, (_, i) => ({ name: `SETTING_${i}`, value: `value-${i}-${namespace}` })),
          resources: { requests: { cpu: '250m', memory: '512Mi' }, limits: { memory: '1Gi' } },
          livenessProbe: { httpGet: { path: '/healthz', port: 'http', scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 },
          readinessProbe: { httpGet: { path: '/ready', port: 'http', scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 5, successThreshold: 1, failureThreshold: 3 },
          volumeMounts: [{ name: `kube-api-access-${hash.slice(0, 5)}`, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }],
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
          imagePullPolicy: 'IfNotPresent',
        },
      ],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      serviceAccountName: 'default',
      serviceAccount: 'default',
      nodeName,
      securityContext: {},
      schedulerName: 'default-scheduler',
      tolerations: [
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      ],
      priority: 0,
      enableServiceLinks: true,
      preemptionPolicy: 'PreemptLowerPriority',
    },
    status: {
      phase: 'Running',
      conditions: ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map((type) => ({ type, status: 'True', lastProbeTime: null, lastTransitionTime: TIME })),
      hostIP: `10.${(index % NODES) >> 8}.${index % 256}.1`,
      hostIPs: [{ ip: `10.${(index % NODES) >> 8}.${index % 256}.1` }],
      podIP: `172.16.${index >> 8 & 255}.${index & 255}`,
      podIPs: [{ ip: `172.16.${index >> 8 & 255}.${index & 255}` }],
      startTime: TIME,
      containerStatuses: [{ name: 'app', state: { running: { startedAt: TIME } }, lastState: {}, ready: true, restartCount: index % 3, image: `registry.example.com/${namespace}/${app}:1.${deployment % 40}.0`, imageID: `registry.example.com/${namespace}/${app}@sha256:${hash.repeat(6).slice(0, 64)}`, containerID: `containerd://${hash.repeat(7).slice(0, 64)}`, started: true }],
      qosClass: 'Burstable',
    },
  };
}

function node(index: number): any {
  const name = `node-${index}`;
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', 'topology.kubernetes.io/zone': `zone-${index % 3}`, ...(index < 3 ? { 'node-role.kubernetes.io/control-plane': '' } : {}) },
      managedFields: [managedFields('kubelet'), managedFields('kubelet', 'status')],
    },
    spec: { podCIDR: `172.16.${index % 256}.0/24`, ...(index < 3 ? { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] } : {}) },
    status: {
      capacity: { cpu: '32', memory: '131900000Ki', pods: '110' },
      allocatable: { cpu: '31500m', memory: '129800000Ki', pods: '110' },
      conditions: ['MemoryPressure', 'DiskPressure', 'PIDPressure', 'Ready'].map((type) => ({ type, status: type === 'Ready' ? 'True' : 'False', lastHeartbeatTime: TIME, lastTransitionTime: TIME, reason: `Kubelet${type}`, message: 'kubelet is posting ready status' })),
      addresses: [{ type: 'InternalIP', address: `10.0.${index >> 8}.${index & 255}` }, { type: 'Hostname', address: name }],
      images: Array.from({ length: 40 }, (_, i) => ({ names: [`registry.example.com/base/image-${i}@sha256:${String(i).repeat(64).slice(0, 64)}`, `registry.example.com/base/image-${i}:1.0`], sizeBytes: 100_000_000 + i })),
      nodeInfo: { kubeletVersion: 'v1.33.4', containerRuntimeVersion: 'containerd://1.7.27', osImage: 'Ubuntu 24.04.2 LTS', architecture: 'amd64', operatingSystem: 'linux' },
    },
  };
}

function deployment(index: number): any {
  const app = `app-${index}`;
  const labels = { app };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: app, namespace: `team-${index % NAMESPACES}`, labels, managedFields: [managedFields('kubectl')] },
    spec: { replicas: PODS_PER_DEPLOYMENT, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'app', image: `registry.example.com/${app}:1.0`, resources: { requests: { cpu: '250m', memory: '512Mi' } } }] } } },
    status: { replicas: PODS_PER_DEPLOYMENT, readyReplicas: PODS_PER_DEPLOYMENT },
  };
}

function replicaSet(index: number): any {
  const object = deployment(index);
  return { ...object, kind: 'ReplicaSet', metadata: { ...object.metadata, name: `${object.metadata.name}-7f${(index * 7919).toString(36).padStart(8, '0')}` } };
}

function service(index: number): any {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name: `app-${index}`, namespace: `team-${index % NAMESPACES}` }, spec: { selector: { app: `app-${index}` }, ports: [{ port: 80, targetPort: 8080 }] } };
}

function endpointSlice(index: number): any {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name: `app-${index}-x1`, namespace: `team-${index % NAMESPACES}`, labels: { 'kubernetes.io/service-name': `app-${index}` } },
    addressType: 'IPv4',
    endpoints: Array.from({ length: PODS_PER_DEPLOYMENT }, (_, i) => ({ addresses: [`172.16.${(index * 10 + i) >> 8 & 255}.${(index * 10 + i) & 255}`], conditions: { ready: true }, nodeName: `node-${(index * 10 + i) % NODES}` })),
    ports: [{ port: 8080, protocol: 'TCP' }],
  };
}

const DEPLOYMENTS = Math.ceil(PODS / PODS_PER_DEPLOYMENT);
const GENERATORS: Record<string, [number, (index: number) => any]> = {
  Node: [NODES, node],
  Pod: [PODS, pod],
  Deployment: [DEPLOYMENTS, deployment],
  ReplicaSet: [DEPLOYMENTS, replicaSet],
  Service: [DEPLOYMENTS, service],
  EndpointSlice: [DEPLOYMENTS, endpointSlice],
};

async function serve(): Promise<void> {
  const { FakeApiServer } = await import('../test/cluster/fake-apiserver');
  const server = await FakeApiServer.start([]);
  server.source = {
    count: (kind, namespace) => (namespace ? 0 : (GENERATORS[kind]?.[0] ?? 0)),
    slice: (kind, namespace, start, end) => {
      const [count, make] = GENERATORS[kind] ?? [0, () => undefined];
      if (namespace) return [];
      return Array.from({ length: Math.max(0, Math.min(end, count) - start) }, (_, i) => make(start + i));
    },
  };
  process.stdout.write(`${JSON.stringify({ url: server.url, ca: server.ca })}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => void server.stop().then(() => process.exit(0)));
}

// ---------------------------------------------------------------- measurements (each in its own process)

interface Measurement {
  ms: number;
  peakRssBytes: number;
  peakHeapMb: number;
  objects: number;
}

function watchHeap(): () => number {
  let peak = 0;
  const sample = () => (peak = Math.max(peak, process.memoryUsage().heapUsed));
  const timer = setInterval(sample, 20);
  return () => {
    clearInterval(timer);
    sample();
    return Math.round(peak / 1e6);
  };
}

const LIST_PATHS = ['/api/v1/nodes', '/api/v1/pods', '/apis/apps/v1/deployments', '/apis/apps/v1/statefulsets', '/apis/apps/v1/daemonsets', '/apis/apps/v1/replicasets', '/apis/batch/v1/jobs', '/apis/batch/v1/cronjobs', '/apis/policy/v1/poddisruptionbudgets', '/apis/autoscaling/v2/horizontalpodautoscalers', '/api/v1/services', '/apis/discovery.k8s.io/v1/endpointslices'];

/** What a naive client does: page through every list and keep each parsed item as it came. */
async function baseline(url: string, ca: string): Promise<Measurement> {
  const agent = new https.Agent({ ca, keepAlive: true });
  const peakHeap = watchHeap();
  const started = performance.now();
  const kept: any[] = [];
  for (const path of LIST_PATHS) {
    let token = '';
    do {
      const body = await new Promise<string>((resolve, reject) => {
        https
          .get(`${url}${path}?limit=${PAGE}${token ? `&continue=${token}` : ''}`, { agent, headers: { Authorization: 'Bearer t' } }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
          })
          .on('error', reject);
      });
      const page = JSON.parse(body);
      for (const item of page.items) kept.push(item);
      token = page.metadata?.continue ?? '';
    } while (token);
  }
  const ms = performance.now() - started;
  agent.destroy();
  return { ms, peakRssBytes: peakRssBytes(process.pid), peakHeapMb: peakHeap(), objects: kept.length };
}

/** `kube-resilience snapshot`: the product's reader (GET, paged, slimmed as it goes) and the streamed List. */
async function snapshot(kubeconfig: string, output: string): Promise<Measurement> {
  const { readLiveCluster } = await import('../server/src/cluster/load');
  const { snapshotChunks } = await import('../server/src/cluster/snapshot');
  const peakHeap = watchHeap();
  const started = performance.now();
  const cluster = await readLiveCluster({ kubeconfig, trusted: true, env: {}, pageSize: PAGE, timeoutMs: 600_000 });
  const out = createWriteStream(output);
  for (const chunk of snapshotChunks(cluster, { context: cluster.name, takenAt: new Date().toISOString(), missing: cluster.missing })) {
    if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve) => out.end(() => resolve()));
  const ms = performance.now() - started;
  if (cluster.missing.length) throw new Error(`missing: ${JSON.stringify(cluster.missing)}`);
  return { ms, peakRssBytes: peakRssBytes(process.pid), peakHeapMb: peakHeap(), objects: cluster.resources.length };
}

// ---------------------------------------------------------------- the run

function runChild(args: string[], heapMb: number): Promise<Measurement> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`--max-old-space-size=${heapMb}`, '--import', 'tsx', __filename, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!)) : reject(new Error(`${args[0]} exited ${code}`))));
  });
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'kr-bench-'));
  const server = spawn(process.execPath, ['--import', 'tsx', __filename, '--serve'], { stdio: ['pipe', 'pipe', 'inherit'] });
  try {
    const first = await new Promise<string>((resolve) => createInterface({ input: server.stdout! }).once('line', resolve));
    const { url, ca } = JSON.parse(first) as { url: string; ca: string };
    const { stringify } = await import('yaml');
    const kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(kubeconfig, stringify({ apiVersion: 'v1', kind: 'Config', 'current-context': 'bench', clusters: [{ name: 'bench', cluster: { server: url, 'certificate-authority-data': Buffer.from(ca).toString('base64') } }], users: [{ name: 'bench', user: { token: 't' } }], contexts: [{ name: 'bench', context: { cluster: 'bench', user: 'bench' } }] }));
    writeFileSync(join(dir, 'ca.pem'), ca);
    console.log(`cluster: ${NODES} nodes, ${PODS} pods, ${DEPLOYMENTS} deployments/replicasets/services/endpointslices; pages of ${PAGE}`);
    const base = await runChild(['--baseline', url, join(dir, 'ca.pem')], 12_000);
    const output = join(dir, 'snapshot.json');
    const ours = await runChild(['--snapshot', kubeconfig, output], 12_000);
    const size = statSync(output).size;
    const row = (name: string, m: Measurement) => `${name.padEnd(34)} ${(m.ms / 1000).toFixed(1).padStart(7)} s ${(m.peakRssBytes / 1e6).toFixed(0).padStart(7)} MB ${String(m.peakHeapMb).padStart(7)} MB ${String(m.objects).padStart(8)}`;
    console.log(`${'measurement'.padEnd(34)} ${'time'.padStart(9)} ${'peak RSS'.padStart(10)} ${'peak heap'.padStart(10)} ${'objects'.padStart(8)}`);
    console.log(row('baseline: paged GET + JSON.parse', base));
    console.log(row('kube-resilience snapshot', ours));
    console.log(`ratio snapshot/baseline: time ${(ours.ms / base.ms).toFixed(2)}, peak RSS ${(ours.peakRssBytes / base.peakRssBytes).toFixed(2)}, peak heap ${(ours.peakHeapMb / base.peakHeapMb).toFixed(2)}; snapshot file ${(size / 1e6).toFixed(0)} MB`);
    report({ snapshot150kPods: { seconds: Number((ours.ms / 1000).toFixed(1)), peakBytes: ours.peakRssBytes } });
  } finally {
    server.stdin!.end();
    rmSync(dir, { recursive: true, force: true });
  }
}

const [mode, ...args] = process.argv.slice(2);
if (mode === '--serve') void serve();
else if (mode === '--baseline') void baseline(args[0], readFileSync(args[1], 'utf8')).then((m) => console.log(JSON.stringify(m)));
else if (mode === '--snapshot') void snapshot(args[0], args[1]).then((m) => console.log(JSON.stringify(m)));
else void main();
