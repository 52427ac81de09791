/* eslint-disable @typescript-eslint/no-explicit-any */
import { resourceFromObject, type Resource } from '../manifest/parse';
import { detectTopology } from './topology-detect';
import type { ClusterInfo } from './types';

/**
 * The embedded demo cluster: what a small kubeadm cluster looks like from kubectl, with the workloads
 * behind this product's stories. Used by `--demo` and by the extension when no kubeconfig is reachable.
 */

const CREATED = '2026-01-12T09:00:00Z';
const CONTROL_PLANE = 'cp-1';
const CONTROL_PLANE_IP = '10.0.0.10';

interface NodeSpec {
  name: string;
  ip: string;
  zone: string;
  controlPlane?: boolean;
  gpus?: number;
}

const NODES: NodeSpec[] = [
  { name: CONTROL_PLANE, ip: CONTROL_PLANE_IP, zone: 'zone-a', controlPlane: true },
  { name: 'worker-a1', ip: '10.0.1.11', zone: 'zone-a' },
  { name: 'worker-a2', ip: '10.0.1.12', zone: 'zone-a' },
  { name: 'worker-b1', ip: '10.0.2.11', zone: 'zone-b' },
  { name: 'gpu-b1', ip: '10.0.2.21', zone: 'zone-b', gpus: 4 },
];

function node(spec: NodeSpec): any {
  const labels: Record<string, string> = {
    'kubernetes.io/arch': 'amd64',
    'kubernetes.io/os': 'linux',
    'kubernetes.io/hostname': spec.name,
    'topology.kubernetes.io/region': 'eu-1',
    'topology.kubernetes.io/zone': spec.zone,
  };
  const taints: any[] = [];
  if (spec.controlPlane) {
    labels['node-role.kubernetes.io/control-plane'] = '';
    labels['node.kubernetes.io/exclude-from-external-load-balancers'] = '';
    taints.push({ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' });
  }
  if (spec.gpus) {
    labels['nvidia.com/gpu.present'] = 'true';
    labels['nvidia.com/gpu.product'] = 'NVIDIA-L4';
    taints.push({ key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' });
  }
  const capacity: Record<string, string> = { cpu: spec.gpus ? '16' : '8', memory: spec.gpus ? '65842456Ki' : '32871128Ki', pods: '110', 'ephemeral-storage': '102687672Ki' };
  if (spec.gpus) capacity['nvidia.com/gpu'] = String(spec.gpus);
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: spec.name, labels, annotations: { 'kubeadm.alpha.kubernetes.io/cri-socket': 'unix:///var/run/containerd/containerd.sock', 'node.alpha.kubernetes.io/ttl': '0' }, creationTimestamp: CREATED },
    spec: { podCIDR: `10.244.${NODES.indexOf(spec)}.0/24`, ...(taints.length ? { taints } : {}) },
    status: {
      capacity,
      allocatable: capacity,
      addresses: [
        { type: 'InternalIP', address: spec.ip },
        { type: 'Hostname', address: spec.name },
      ],
      conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady' }],
      nodeInfo: { kubeletVersion: 'v1.33.4', containerRuntimeVersion: 'containerd://1.7.27', osImage: 'Ubuntu 24.04.2 LTS', architecture: 'amd64', operatingSystem: 'linux' },
    },
  };
}

function runningStatus(hostIP: string, podIP: string, containers: string[]): any {
  return {
    phase: 'Running',
    hostIP,
    podIP,
    startTime: CREATED,
    qosClass: 'Burstable',
    conditions: ['PodScheduled', 'Initialized', 'ContainersReady', 'Ready'].map((type) => ({ type, status: 'True' })),
    containerStatuses: containers.map((name) => ({ name, ready: true, restartCount: 0, started: true })),
  };
}

function hostIp(nodeName: string): string {
  return NODES.find((n) => n.name === nodeName)!.ip;
}

/** A kubeadm static pod as the kubelet mirrors it into the API. */
function staticPod(component: string, command: string[], port: number, extraAnnotations: Record<string, string>): any {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${component}-${CONTROL_PLANE}`,
      namespace: 'kube-system',
      labels: { component, tier: 'control-plane' },
      annotations: {
        'kubernetes.io/config.hash': `${component.length}f3c1a9d0e2b47c5`,
        'kubernetes.io/config.mirror': `${component.length}f3c1a9d0e2b47c5`,
        'kubernetes.io/config.seen': CREATED,
        'kubernetes.io/config.source': 'file',
        ...extraAnnotations,
      },
      ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: CONTROL_PLANE, controller: true }],
      creationTimestamp: CREATED,
    },
    spec: {
      nodeName: CONTROL_PLANE,
      hostNetwork: true,
      priorityClassName: 'system-node-critical',
      tolerations: [{ operator: 'Exists', effect: 'NoExecute' }],
      containers: [
        {
          name: component,
          image: `registry.k8s.io/${component}:${component === 'etcd' ? '3.5.21-0' : 'v1.33.4'}`,
          command,
          resources: { requests: { cpu: component === 'kube-apiserver' ? '250m' : '100m' } },
          livenessProbe: { httpGet: { host: component === 'etcd' ? '127.0.0.1' : CONTROL_PLANE_IP, path: component === 'etcd' ? '/livez' : '/livez', port, scheme: component === 'etcd' ? 'HTTP' : 'HTTPS' }, initialDelaySeconds: 10, timeoutSeconds: 15, periodSeconds: 10, failureThreshold: 8 },
        },
      ],
    },
    status: runningStatus(CONTROL_PLANE_IP, CONTROL_PLANE_IP, [component]),
  };
}

interface WorkloadStory {
  kind: 'Deployment' | 'StatefulSet';
  name: string;
  namespace: string;
  replicas: number;
  /** Node of each replica, in order. */
  placement: string[];
  labels: Record<string, string>;
  podSpec: any;
  annotations?: Record<string, string>;
}

let podIpCounter = 10;

function workloadObjects(story: WorkloadStory): any[] {
  const selector = { matchLabels: story.labels };
  const template = { metadata: { labels: story.labels, ...(story.annotations ? { annotations: story.annotations } : {}) }, spec: story.podSpec };
  const spec: any = { replicas: story.replicas, selector, template };
  if (story.kind === 'StatefulSet') spec.serviceName = story.name;
  const workload = { apiVersion: 'apps/v1', kind: story.kind, metadata: { name: story.name, namespace: story.namespace, labels: story.labels, creationTimestamp: CREATED }, spec, status: { replicas: story.replicas, readyReplicas: story.replicas, availableReplicas: story.replicas } };
  const objects: any[] = [workload];
  const hash = hashOf(story.name);
  let owner: { apiVersion: string; kind: string; name: string; controller: boolean } = { apiVersion: 'apps/v1', kind: story.kind, name: story.name, controller: true };
  if (story.kind === 'Deployment') {
    const replicaSetName = `${story.name}-${hash}`;
    objects.push({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: replicaSetName, namespace: story.namespace, labels: { ...story.labels, 'pod-template-hash': hash }, ownerReferences: [owner], creationTimestamp: CREATED },
      spec: { replicas: story.replicas, selector: { matchLabels: { ...story.labels, 'pod-template-hash': hash } }, template: { ...template, metadata: { ...template.metadata, labels: { ...story.labels, 'pod-template-hash': hash } } } },
      status: { replicas: story.replicas, readyReplicas: story.replicas },
    });
    owner = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: replicaSetName, controller: true };
  }
  story.placement.forEach((nodeName, index) => {
    const podName = story.kind === 'StatefulSet' ? `${story.name}-${index}` : `${story.name}-${hash}-${suffixOf(story.name, index)}`;
    const labels = story.kind === 'StatefulSet' ? { ...story.labels, 'statefulset.kubernetes.io/pod-name': podName } : { ...story.labels, 'pod-template-hash': hash };
    objects.push({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: podName, namespace: story.namespace, labels, ...(story.annotations ? { annotations: story.annotations } : {}), ownerReferences: [owner], creationTimestamp: CREATED },
      spec: { ...story.podSpec, nodeName },
      status: runningStatus(hostIp(nodeName), `10.244.${NODES.findIndex((n) => n.name === nodeName)}.${podIpCounter++}`, story.podSpec.containers.map((c: any) => c.name)),
    });
  });
  return objects;
}

function hashOf(text: string): string {
  let h = 7;
  for (const ch of text) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return h.toString(36).padStart(9, 'b').slice(-9).replace(/[0-9]/g, (d) => 'bcdfghjkl'[Number(d)]);
}

function suffixOf(name: string, index: number): string {
  // The last characters: the first are the padding and leading digits that names differing only in `index` share.
  return hashOf(`${name}/${index}`).slice(-5);
}

function service(name: string, namespace: string, selector: Record<string, string>, port: number, extra: any = {}): any {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace, creationTimestamp: CREATED }, spec: { type: 'ClusterIP', selector, ports: [{ name: 'http', port, targetPort: port, protocol: 'TCP' }], ...extra } };
}

const STORIES: WorkloadStory[] = [
  {
    // CoreDNS with both replicas on one worker: that worker's drain or death takes cluster DNS with it.
    kind: 'Deployment',
    name: 'coredns',
    namespace: 'kube-system',
    replicas: 2,
    placement: ['worker-a1', 'worker-a1'],
    labels: { 'k8s-app': 'kube-dns' },
    podSpec: {
      priorityClassName: 'system-cluster-critical',
      tolerations: [{ key: 'CriticalAddonsOnly', operator: 'Exists' }, { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }],
      containers: [
        {
          name: 'coredns',
          image: 'registry.k8s.io/coredns/coredns:v1.12.0',
          ports: [{ name: 'dns', containerPort: 53, protocol: 'UDP' }, { name: 'metrics', containerPort: 9153, protocol: 'TCP' }],
          resources: { requests: { cpu: '100m', memory: '70Mi' }, limits: { memory: '170Mi' } },
          livenessProbe: { httpGet: { path: '/health', port: 8080 }, initialDelaySeconds: 60, timeoutSeconds: 5, failureThreshold: 5 },
          readinessProbe: { httpGet: { path: '/ready', port: 8181 } },
        },
      ],
    },
  },
  {
    // The legacy Tomcat app server: 20 minutes to start, HTTP sessions only in memory.
    kind: 'Deployment',
    name: 'billing',
    namespace: 'legacy',
    replicas: 3,
    placement: ['worker-a1', 'worker-a2', 'worker-b1'],
    labels: { app: 'billing' },
    annotations: { 'kube-resilience/sessions': 'in-memory', 'kube-resilience/startup-seconds': '1200' },
    podSpec: {
      containers: [
        {
          name: 'app',
          image: 'registry.example.com/billing:7.2',
          ports: [{ name: 'http', containerPort: 8080 }],
          resources: { requests: { cpu: '2', memory: '6Gi' }, limits: { memory: '6Gi' } },
          startupProbe: { httpGet: { path: '/actuator/health', port: 'http' }, periodSeconds: 10, failureThreshold: 120 },
          livenessProbe: { httpGet: { path: '/actuator/health', port: 'http' } },
          readinessProbe: { httpGet: { path: '/actuator/health', port: 8080 } },
        },
      ],
    },
  },
  {
    // Video calls last an hour; evicting a bridge drops every call on it.
    kind: 'Deployment',
    name: 'video-bridge',
    namespace: 'meet',
    replicas: 2,
    placement: ['worker-b1', 'worker-b1'],
    labels: { app: 'video-bridge' },
    annotations: { 'kube-resilience/sessions': 'in-memory' },
    podSpec: {
      containers: [
        {
          name: 'jvb',
          image: 'jitsi/jvb:stable-9955',
          ports: [{ name: 'media', containerPort: 10000, protocol: 'UDP' }, { name: 'http', containerPort: 8080 }],
          resources: { requests: { cpu: '4', memory: '4Gi' }, limits: { memory: '4Gi' } },
          readinessProbe: { httpGet: { path: '/about/health', port: 8080 } },
        },
      ],
    },
  },
  {
    // One GPU renderer on the tainted GPU node: it keeps the expensive pool from ever scaling down.
    kind: 'Deployment',
    name: 'gpu-renderer',
    namespace: 'render',
    replicas: 1,
    placement: ['gpu-b1'],
    labels: { app: 'gpu-renderer' },
    podSpec: {
      tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
      nodeSelector: { 'nvidia.com/gpu.present': 'true' },
      containers: [
        {
          name: 'renderer',
          image: 'registry.example.com/renderer:3.1',
          resources: { requests: { cpu: '4', memory: '16Gi', 'nvidia.com/gpu': '1' }, limits: { memory: '16Gi', 'nvidia.com/gpu': '1' } },
        },
      ],
    },
  },
  {
    // An API whose readiness checks its database: when the database blips, every replica leaves the Service at once.
    kind: 'Deployment',
    name: 'orders-api',
    namespace: 'shop',
    replicas: 3,
    placement: ['worker-a1', 'worker-a2', 'worker-b1'],
    labels: { app: 'orders-api' },
    podSpec: {
      containers: [
        {
          name: 'api',
          image: 'registry.example.com/orders-api:5.8',
          ports: [{ name: 'http', containerPort: 8080 }],
          resources: { requests: { cpu: '500m', memory: '512Mi' }, limits: { memory: '512Mi' } },
          livenessProbe: { httpGet: { path: '/healthz', port: 'http' } },
          readinessProbe: { httpGet: { path: '/health/db', port: 'http' }, periodSeconds: 5, failureThreshold: 2 },
        },
      ],
    },
  },
  {
    kind: 'StatefulSet',
    name: 'orders-db',
    namespace: 'shop',
    replicas: 1,
    placement: ['worker-a2'],
    labels: { app: 'orders-db' },
    podSpec: {
      containers: [
        {
          name: 'postgres',
          image: 'postgres:17',
          ports: [{ name: 'postgres', containerPort: 5432 }],
          resources: { requests: { cpu: '1', memory: '2Gi' }, limits: { memory: '2Gi' } },
          readinessProbe: { exec: { command: ['pg_isready', '-U', 'orders'] } },
        },
      ],
      volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data-orders-db-0' } }],
    },
  },
  {
    // The admin tool nobody thought to scale: one replica, gone during every drain.
    kind: 'Deployment',
    name: 'admin-console',
    namespace: 'default',
    replicas: 1,
    placement: ['worker-a2'],
    labels: { app: 'admin-console' },
    podSpec: {
      containers: [{ name: 'console', image: 'registry.example.com/admin-console:2.4', ports: [{ containerPort: 3000 }], resources: { requests: { cpu: '100m', memory: '256Mi' } } }],
    },
  },
];

const KUBEADM_CLUSTER_CONFIGURATION = `apiServer: {}
apiVersion: kubeadm.k8s.io/v1beta4
caCertificateValidityPeriod: 87600h0m0s
certificateValidityPeriod: 8760h0m0s
certificatesDir: /etc/kubernetes/pki
clusterName: kubernetes
controllerManager: {}
dns: {}
encryptionAlgorithm: RSA-2048
etcd:
  local:
    dataDir: /var/lib/etcd
imageRepository: registry.k8s.io
kind: ClusterConfiguration
kubernetesVersion: v1.33.4
networking:
  dnsDomain: cluster.local
  podSubnet: 10.244.0.0/16
  serviceSubnet: 10.96.0.0/12
proxy: {}
scheduler: {}
`;

const COREFILE = `.:53 {
    errors
    health {
       lameduck 5s
    }
    ready
    kubernetes cluster.local in-addr.arpa ip6.arpa {
       pods insecure
       fallthrough in-addr.arpa ip6.arpa
       ttl 30
    }
    prometheus :9153
    forward . /etc/resolv.conf {
       max_concurrent 1000
    }
    cache 30
    loop
    reload
    loadbalance
}
`;

function lease(name: string, holder: string, durationSeconds: number, labels?: Record<string, string>): any {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name, namespace: 'kube-system', ...(labels ? { labels } : {}), creationTimestamp: CREATED },
    spec: { holderIdentity: holder, leaseDurationSeconds: durationSeconds, renewTime: '2026-01-12T09:30:00.000000Z' },
  };
}

function controlPlaneObjects(): any[] {
  return [
    staticPod('etcd', ['etcd', `--advertise-client-urls=https://${CONTROL_PLANE_IP}:2379`, '--data-dir=/var/lib/etcd'], 2381, {
      'kubeadm.kubernetes.io/etcd.advertise-client-urls': `https://${CONTROL_PLANE_IP}:2379`,
    }),
    staticPod('kube-apiserver', ['kube-apiserver', `--advertise-address=${CONTROL_PLANE_IP}`, '--etcd-servers=https://127.0.0.1:2379', '--secure-port=6443'], 6443, {
      'kubeadm.kubernetes.io/kube-apiserver.advertise-address.endpoint': `${CONTROL_PLANE_IP}:6443`,
    }),
    staticPod('kube-controller-manager', ['kube-controller-manager', '--leader-elect=true'], 10257, {}),
    staticPod('kube-scheduler', ['kube-scheduler', '--leader-elect=true'], 10259, {}),
    lease('kube-controller-manager', `${CONTROL_PLANE}_6f1c7a52-3c1e-4d8e-9a57-0d2f1b7e4c11`, 15),
    lease('kube-scheduler', `${CONTROL_PLANE}_0b9e2d4f-8a61-4f0c-b3c5-7e2a9d1f6b22`, 15),
    lease('apiserver-7kq2mvx4tbyzw3dn6hfrj5lc', `apiserver-7kq2mvx4tbyzw3dn6hfrj5lc_${CONTROL_PLANE}`, 3600, { 'apiserver.kubernetes.io/identity': 'kube-apiserver', 'kubernetes.io/hostname': CONTROL_PLANE }),
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kubeadm-config', namespace: 'kube-system', creationTimestamp: CREATED }, data: { ClusterConfiguration: KUBEADM_CLUSTER_CONFIGURATION } },
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'coredns', namespace: 'kube-system', creationTimestamp: CREATED }, data: { Corefile: COREFILE } },
    { apiVersion: 'v1', kind: 'Service', metadata: { name: 'kubernetes', namespace: 'default', labels: { component: 'apiserver', provider: 'kubernetes' } }, spec: { type: 'ClusterIP', clusterIP: '10.96.0.1', ports: [{ name: 'https', port: 443, targetPort: 6443, protocol: 'TCP' }] } },
    {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { name: 'kubernetes', namespace: 'default', labels: { 'kubernetes.io/service-name': 'kubernetes', 'endpointslice.kubernetes.io/managed-by': 'endpointslicemirroring-controller.k8s.io' } },
      addressType: 'IPv4',
      endpoints: [{ addresses: [CONTROL_PLANE_IP], conditions: { ready: true } }],
      ports: [{ name: 'https', port: 6443, protocol: 'TCP' }],
    },
    service('kube-dns', 'kube-system', { 'k8s-app': 'kube-dns' }, 53, { clusterIP: '10.96.0.10' }),
  ];
}

function kubeProxy(): any[] {
  const labels = { 'k8s-app': 'kube-proxy' };
  const podSpec = { priorityClassName: 'system-node-critical', hostNetwork: true, tolerations: [{ operator: 'Exists' }], containers: [{ name: 'kube-proxy', image: 'registry.k8s.io/kube-proxy:v1.33.4' }] };
  const daemonSet = { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'kube-proxy', namespace: 'kube-system', labels, creationTimestamp: CREATED }, spec: { selector: { matchLabels: labels }, template: { metadata: { labels }, spec: podSpec } }, status: { desiredNumberScheduled: NODES.length, numberReady: NODES.length } };
  const pods = NODES.map((n) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `kube-proxy-${suffixOf(n.name, 0)}`, namespace: 'kube-system', labels, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'kube-proxy', controller: true }], creationTimestamp: CREATED },
    spec: { ...podSpec, nodeName: n.name },
    status: runningStatus(n.ip, n.ip, ['kube-proxy']),
  }));
  return [daemonSet, ...pods];
}

function storyExtras(): any[] {
  return [
    service('billing', 'legacy', { app: 'billing' }, 8080, { sessionAffinity: 'ClientIP' }),
    service('video-bridge', 'meet', { app: 'video-bridge' }, 8080),
    service('orders-api', 'shop', { app: 'orders-api' }, 8080),
    service('orders-db', 'shop', { app: 'orders-db' }, 5432, { clusterIP: 'None' }),
    service('admin-console', 'default', { app: 'admin-console' }, 3000),
    {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'orders-api', namespace: 'shop' },
      spec: { minAvailable: 2, selector: { matchLabels: { app: 'orders-api' } } },
      status: { currentHealthy: 3, desiredHealthy: 2, disruptionsAllowed: 1, expectedPods: 3 },
    },
    {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'orders-api', namespace: 'shop' },
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'orders-api' }, minReplicas: 3, maxReplicas: 10, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }] },
    },
  ];
}

/** The demo cluster's objects, as `kubectl get … -A -o json` would list them. */
export function demoObjects(): any[] {
  podIpCounter = 10;
  return [...NODES.map(node), ...controlPlaneObjects(), ...kubeProxy(), ...STORIES.flatMap(workloadObjects), ...storyExtras()];
}

export function demoCluster(): ClusterInfo {
  const resources = demoObjects().map((o) => resourceFromObject(o)).filter((r): r is Resource => !!r);
  return { source: 'demo', name: 'demo', resources, missing: [], topology: detectTopology(resources) };
}
