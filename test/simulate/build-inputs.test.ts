import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { demoCluster } from '../../server/src/cluster/demo';
import { Inventory } from '../../server/src/inventory/inventory';
import { parseManifest, resourceFromObject } from '../../server/src/manifest/parse';
import { simulate } from '../../server/src/simulate/simulate';
import type { ClusterInfo } from '../../server/src/cluster/types';
import { buildSimInputs } from '../../server/src/simulate/build-inputs';
import { snapshotFromValue } from '../../server/src/cluster/snapshot';

/** The simulator's inputs from one manifest file and no cluster. */
function inputsOfManifest(uri: string, text: string): ReturnType<typeof buildSimInputs> {
  const inventory = new Inventory();
  inventory.setFile(parseManifest(uri, text));
  return buildSimInputs(inventory, undefined);
}

describe('simulator inputs from the demo cluster', () => {
  const cluster = demoCluster();
  const inventory = new Inventory();
  inventory.setCluster(cluster.resources);
  const { topology, workloads } = buildSimInputs(inventory, cluster);

  it('finds the single control plane with its stacked etcd member', () => {
    assert.deepEqual(topology.nodes.filter((n) => n.controlPlane).map((n) => n.name), ['cp-1']);
    assert.deepEqual(topology.etcd, { mode: 'stacked', members: 1 });
    assert.equal(topology.nodes.find((n) => n.name === 'worker-b1')!.zone, 'zone-b');
  });

  it('takes the node-monitor grace period and the leaders the cluster was read with, and assumes neither', () => {
    assert.equal(topology.nodeMonitorGrace, 50);
    assert.deepEqual(topology.leaders, { scheduler: 'cp-1', controllerManager: 'cp-1' });
    assert.ok(!topology.assumptions.some((a) => /grace period/.test(a)), topology.assumptions.join('\n'));
  });

  it('sees where CoreDNS runs from its pods, and which workload they are (a drain of its pods is felt by cluster DNS)', () => {
    assert.deepEqual(topology.coreDnsNodes, ['worker-a1', 'worker-a1']);
    assert.ok(!topology.assumptions.some((a) => /CoreDNS/.test(a)));
    assert.deepEqual(workloads.filter((w) => w.clusterDns).map((w) => `${w.namespace}/${w.name}`), ['kube-system/coredns']);
  });

  it('takes placement from the live pods and leaves the control plane out of the workloads', () => {
    const db = workloads.find((w) => w.name === 'orders-db')!;
    assert.deepEqual({ kind: db.kind, replicas: db.replicas, placement: db.placement, source: db.placementSource }, { kind: 'StatefulSet', replicas: 1, placement: { 'worker-a2': 1 }, source: 'observed' });
    const api = workloads.find((w) => w.name === 'orders-api')!;
    assert.deepEqual(api.placement, { 'worker-a1': 1, 'worker-a2': 1, 'worker-b1': 1 });
    assert.ok(!workloads.some((w) => /^(kube-apiserver|etcd|kube-scheduler|kube-controller-manager)/.test(w.name)));
    assert.ok(!workloads.some((w) => w.kind === 'ReplicaSet'), 'ReplicaSets count through their Deployment');
  });
});

describe('simulator inputs from manifests alone', () => {
  const { topology, workloads } = inputsOfManifest('app.yaml', `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop, annotations: {kube-resilience/startup-seconds: "90"}}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      topologySpreadConstraints:
        - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: web}}}
      containers:
        - name: web
          image: nginx
          resources: {limits: {memory: 256Mi}}
          readinessProbe: {httpGet: {path: /ready, port: 80}}
---
apiVersion: v1
kind: Service
metadata: {name: web, namespace: shop}
spec: {selector: {app: web}, ports: [{port: 80}]}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web, namespace: shop}
spec: {scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}, minReplicas: 2, maxReplicas: 8}
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: report, namespace: shop}
spec:
  schedule: "0 * * * *"
  jobTemplate: {spec: {template: {spec: {restartPolicy: OnFailure, containers: [{name: r, image: report}]}}}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: migrate, namespace: shop}
spec:
  template:
    spec: {restartPolicy: Never, containers: [{name: m, image: migrate}]}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent, namespace: ops}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec: {containers: [{name: a, image: agent}]}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: ingress-nginx-controller, namespace: ingress}
spec:
  selector: {matchLabels: {app: ingress}}
  template:
    metadata: {labels: {app: ingress}}
    spec: {hostNetwork: true, containers: [{name: c, image: registry.k8s.io/ingress-nginx/controller:v1.12.0, ports: [{containerPort: 80, hostPort: 80}, {containerPort: 443, hostPort: 443}, {containerPort: 10254}]}]}
`);
  const byName = (name: string) => workloads.find((w) => w.name === name)!;

  it('assumes a small kubeadm cluster and says so', () => {
    assert.deepEqual(topology.nodes.map((n) => n.name), ['control-plane', 'worker-1', 'worker-2', 'worker-3']);
    assert.ok(topology.assumptions.some((a) => /no cluster given/.test(a)));
    assert.ok(topology.assumptions.some((a) => /CoreDNS placement unknown/.test(a)));
  });

  it('reads what the model needs from a workload', () => {
    const web = byName('web');
    assert.equal(web.placementSource, 'assumed');
    assert.equal(web.replicas, 2);
    assert.deepEqual(web.hpa, { min: 2, max: 8 });
    assert.equal(web.memoryLimit, true);
    assert.equal(web.fronted, true);
    assert.deepEqual(web.probes, { liveness: false, readiness: true, startup: false });
    assert.equal(web.startSeconds, 90, 'the start it declares');
    assert.equal(byName('report').startSeconds, undefined, 'none declared, none assumed here');
    assert.ok(!('control-plane' in web.placement), 'the control-plane taint keeps it off');
  });

  it('knows CronJobs have no pods between runs, DaemonSets one a node, ingress controllers talk to the API', () => {
    assert.deepEqual({ replicas: byName('report').replicas, schedule: byName('report').schedule }, { replicas: 0, schedule: '0 * * * *' });
    assert.deepEqual(byName('agent').placement, { 'worker-1': 1, 'worker-2': 1, 'worker-3': 1 });
    assert.match(byName('ingress-nginx-controller').apiClient!, /ingress-nginx controller/);
    assert.equal(byName('ingress-nginx-controller').ingressController, true);
    assert.equal(byName('web').apiClient, undefined);
  });

  it('knows whose pods are not restarted when a container stops (restartPolicy: Never)', () => {
    assert.deepEqual(workloads.filter((w) => w.restartNever).map((w) => w.name), ['migrate']);
  });

  it('knows whose pods use their node\'s network (a pod restarted on its node keeps its IP), and the host ports they take', () => {
    assert.deepEqual(workloads.filter((w) => w.hostNetwork).map((w) => w.name), ['ingress-nginx-controller']);
    assert.deepEqual(byName('ingress-nginx-controller').hostPorts, [80, 443], 'the ports it takes on its node');
    assert.deepEqual([byName('web').antiAffinity, byName('web').hardSpread], [undefined, [{ domain: 'zone', maxSkew: 1 }]], 'its zone spread refuses to schedule');
    assert.equal(byName('web').hostPorts, undefined);
  });
});

describe('simulator inputs: memory limits, a surge\'s OOM kills in place rather than node pressure', () => {
  const pod = (name: string, resources: string) => `apiVersion: v1\nkind: Pod\nmetadata: {name: ${name}, namespace: shop}\nspec:\n  resources: ${resources}\n  containers: [{name: app, image: example/app:1}, {name: b, image: example/b:1}]\n`;
  const { workloads } = inputsOfManifest('pods.yaml', `${pod('bounded', '{requests: {memory: 4Gi}, limits: {memory: 4Gi}}')}---\n${pod('counted', '{requests: {memory: 4Gi}}')}`);

  it('a pod-level memory limit (spec.resources) caps its containers together; a pod-level request alone caps nothing', () => {
    assert.deepEqual(workloads.map((w) => [w.name, w.memoryLimit]), [['bounded', true], ['counted', false]]);
  });
});

describe('simulator inputs of a workload a KEDA ScaledObject scales', () => {
  /** Deployment worker (`spec` under its spec) and a ScaledObject of it between 3 and 10 (`metadata` its own). */
  const worker = (spec: string, metadata: string) => {
    const { workloads } = inputsOfManifest(
      'file:///w/worker.yaml',
      `apiVersion: apps/v1
kind: Deployment
metadata: {name: worker}
spec:
${spec}  selector: {matchLabels: {app: worker}}
  template:
    metadata: {labels: {app: worker}}
    spec: {containers: [{name: w, image: worker}]}
---
apiVersion: keda.sh/v1alpha1
kind: ScaledObject
metadata: ${metadata}
spec: {scaleTargetRef: {name: worker}, minReplicaCount: 3, maxReplicaCount: 10, triggers: [{type: cpu, metricType: Utilization, metadata: {value: "60"}}]}
`,
    );
    return workloads.find((w) => w.name === 'worker')!;
  };

  it('runs its minReplicaCount and scales up to its maxReplicaCount, as the HPA KEDA makes', () => {
    const scaled = worker('', '{name: worker}');
    assert.equal(scaled.replicas, 3);
    assert.deepEqual(scaled.hpa, { min: 3, max: 10, keda: true });
  });

  it('runs the count its paused-replicas holds it at, and nothing scales it meanwhile', () => {
    const held = worker('  replicas: 5\n', '{name: worker, annotations: {autoscaling.keda.sh/paused-replicas: "2"}}');
    assert.equal(held.replicas, 2);
    assert.equal(held.hpa, undefined);
  });
});

describe('simulator inputs from a managed cluster', () => {
  const node = (name: string) => resourceFromObject({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'cloud.google.com/gke-nodepool': 'default', 'topology.kubernetes.io/zone': 'europe-west1-b' } } })!;
  const cluster: ClusterInfo = {
    source: 'snapshot',
    name: 'gke.json',
    resources: [node('gke-pool-1'), node('gke-pool-2')],
    missing: [],
    topology: { controlPlaneNodes: [], controlPlaneCount: undefined, etcd: { mode: 'managed', members: undefined }, apiServerEndpoints: ['34.1.2.3'], managed: 'GKE', evidence: [] },
  };
  const inventory = new Inventory();
  inventory.setCluster(cluster.resources);
  const { topology } = buildSimInputs(inventory, cluster);

  it('draws the hidden control plane so that it can be failed, and calls the result a what-if', () => {
    assert.deepEqual(topology.nodes.filter((n) => n.controlPlane).map((n) => n.name), ['managed-control-plane-1', 'managed-control-plane-2', 'managed-control-plane-3']);
    const result = simulate(topology, [], { fail: { kind: 'apiserver' }, duration: 600, events: [] });
    assert.match(result.assumptions[0], /managed by GKE: the provider runs it highly available and hides it, so this is a what-if only/);
    assert.equal(result.components.find((c) => c.name === 'api')!.states[0].state, 'down');
  });

  it('says the node-monitor grace period it assumes for a control plane it cannot see', () => {
    assert.equal(topology.nodeMonitorGrace, undefined);
    assert.ok(topology.assumptions.includes("the controller manager's flags and version were not seen: its node-monitor grace period assumed 50 s, the default since v1.32 (40 s before)"), topology.assumptions.join('\n'));
  });
});

describe('what the probes allow a (re)started container, from its manifest', () => {
  const budgetOf = (containers: string) => {
    const inventory = new Inventory();
    inventory.setFile(
      parseManifest(
        'app.yaml',
        `apiVersion: apps/v1
kind: Deployment
metadata:
  name: app
  namespace: legacy
  annotations: {kube-resilience/startup-seconds: "1200"}
spec:
  replicas: 2
  selector: {matchLabels: {app: app}}
  template:
    metadata: {labels: {app: app}}
    spec:
      containers:
${containers}`,
      ),
    );
    const app = buildSimInputs(inventory, undefined).workloads.find((w) => w.name === 'app')!;
    assert.equal(app.startSeconds, 1200);
    return app.startBudget;
  };

  it('is the liveness budget when there is no startup probe', () => {
    assert.deepEqual(budgetOf(`        - name: app
          image: billing:7
          livenessProbe: {httpGet: {path: /livez, port: 8080}, initialDelaySeconds: 60, periodSeconds: 5}
`), { seconds: 75, probe: 'liveness', container: 'app', formula: 'initialDelaySeconds 60 + 3 × 5 s' });
  });

  it('is the startup budget when a startup probe holds liveness back', () => {
    assert.deepEqual(budgetOf(`        - name: app
          image: billing:7
          startupProbe: {httpGet: {path: /livez, port: 8080}, periodSeconds: 10, failureThreshold: 120}
          livenessProbe: {httpGet: {path: /livez, port: 8080}}
`), { seconds: 1200, probe: 'startup', container: 'app', formula: 'initialDelaySeconds 0 + 120 × 10 s' });
  });

  it('is nothing for a liveness probe naming a port the container does not declare: the kubelet never runs it', () => {
    assert.equal(budgetOf(`        - name: app
          image: billing:7
          ports: [{name: web, containerPort: 8080}]
          livenessProbe: {httpGet: {path: /livez, port: http}, initialDelaySeconds: 60, periodSeconds: 5}
`), undefined);
  });

  it('is nothing for a probe with a timing in quotes: the API server refuses it, and its defaults are no budget either', () => {
    assert.equal(budgetOf(`        - name: app
          image: billing:7
          livenessProbe: {httpGet: {path: /livez, port: 8080}, initialDelaySeconds: "1500"}
`), undefined);
  });

  it('is nothing for a probe with a value the API server refuses after defaulting: a negative timing, a startup successThreshold other than 1, a grace period of 0', () => {
    for (const probe of [
      'livenessProbe: {httpGet: {path: /livez, port: 8080}, periodSeconds: -10}',
      'startupProbe: {httpGet: {path: /livez, port: 8080}, failureThreshold: 120, successThreshold: 2}',
      'startupProbe: {httpGet: {path: /livez, port: 8080}, failureThreshold: 120, terminationGracePeriodSeconds: 0}',
    ]) {
      assert.equal(budgetOf(`        - name: app\n          image: billing:7\n          ${probe}\n`), undefined, probe);
    }
  });

  it('is nothing from an init container that is no native sidecar: it takes no probe (the API server refuses one)', () => {
    assert.equal(budgetOf(`        - name: app
          image: billing:7
      initContainers:
        - name: migrate
          image: billing-migrate:7
          livenessProbe: {exec: {command: [cat, /ok]}, periodSeconds: 5}
`), undefined);
  });

  it('is the tightest container, and nothing when no probe kills during a start', () => {
    assert.equal(budgetOf(`        - name: app
          image: billing:7
`), undefined);
    assert.equal(budgetOf(`        - name: app
          image: billing:7
          startupProbe: {exec: {command: [cat, /ready]}, failureThreshold: 200}
        - name: sidecar
          image: proxy:1
          livenessProbe: {tcpSocket: {port: 15000}}
`)!.container, 'sidecar');
  });

  it('the demo cluster\'s billing has a startup probe that covers its 20-minute start', () => {
    const cluster = demoCluster();
    const inventory = new Inventory();
    inventory.setCluster(cluster.resources);
    const billing = buildSimInputs(inventory, cluster).workloads.find((w) => w.name === 'billing')!;
    assert.equal(billing.startSeconds, 1200);
    assert.equal(billing.startBudget!.probe, 'startup');
    assert.equal(billing.startBudget!.seconds, 1200);
  });
});

describe('simulator inputs from a cluster with a node that has no name', () => {
  it('leaves the node out, says so, and simulates the others', () => {
    const cluster = demoCluster();
    const nameless = { apiVersion: 'v1', kind: 'Node', metadata: {}, status: { allocatable: { cpu: '4', memory: '8Gi' } } };
    const inventory = new Inventory();
    inventory.setCluster([...cluster.resources, resourceFromObject(nameless)!]);
    const inputs = buildSimInputs(inventory, cluster);
    assert.ok(inputs.topology.assumptions.includes('1 node without a name left out'), inputs.topology.assumptions.join('\n'));
    assert.ok(inputs.topology.nodes.every((n) => typeof n.name === 'string'));
    assert.doesNotThrow(() => simulate(inputs.topology, inputs.workloads, { fail: { kind: 'apiserver' }, duration: 3600, events: [] }));
  });
});

describe('simulator inputs from a cluster with a node named like a member every object has', () => {
  it('counts the pods on a node named constructor, and loses them with it (they left the simulation)', () => {
    const cluster = demoCluster();
    const renamed = { ...cluster, resources: cluster.resources.map((r) => resourceFromObject(JSON.parse(JSON.stringify(r.object).replaceAll('worker-a2', 'constructor')))!) };
    const inventory = new Inventory();
    inventory.setCluster(renamed.resources);
    const inputs = buildSimInputs(inventory, renamed);
    const db = inputs.workloads.find((w) => w.name === 'orders-db')!;
    assert.deepEqual(db.placement, { constructor: 1 });
    const result = simulate(inputs.topology, inputs.workloads, { fail: { kind: 'apiserver' }, duration: 3600, events: [{ kind: 'node-lost', node: 'constructor', at: 600 }] });
    const ready = result.workloads.find((w) => w.name === 'orders-db')!.capacity.map((point) => point.ready);
    assert.equal(Math.min(...ready), 0, 'orders-db goes with its node');
  });
});

describe('simulator inputs from a cluster whose pods of a workload are all Pending', () => {
  it('places none of them: nothing of it serves (they were placed as a guess and served)', () => {
    const cluster = demoCluster();
    const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'allpend', namespace: 'default' }, spec: { replicas: 2, selector: { matchLabels: { app: 'allpend' } }, template: { metadata: { labels: { app: 'allpend' } }, spec: { containers: [{ name: 'c', image: 'x' }] } } } };
    const pending = (name: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', labels: { app: 'allpend' } }, spec: { containers: [{ name: 'c', image: 'x' }] }, status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }] } });
    const inventory = new Inventory();
    inventory.setCluster([...cluster.resources, ...[deployment, pending('allpend-1'), pending('allpend-2')].map((o) => resourceFromObject(o)!)]);
    const allpend = buildSimInputs(inventory, cluster).workloads.find((w) => w.name === 'allpend')!;
    assert.deepEqual({ placement: allpend.placement, source: allpend.placementSource }, { placement: {}, source: 'observed' });
  });

  it('a DaemonSet of them wants the pods it has, not none ("no pods wanted")', () => {
    const cluster = demoCluster();
    const daemonSet = { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'agent', namespace: 'default' }, spec: { selector: { matchLabels: { app: 'agent' } }, template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'c', image: 'x' }] } } } };
    const pending = (name: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', labels: { app: 'agent' } }, spec: { containers: [{ name: 'c', image: 'x' }] }, status: { phase: 'Pending' } });
    const inventory = new Inventory();
    inventory.setCluster([...cluster.resources, ...[daemonSet, pending('agent-1'), pending('agent-2'), pending('agent-3')].map((o) => resourceFromObject(o)!)]);
    const agent = buildSimInputs(inventory, cluster).workloads.find((w) => w.name === 'agent')!;
    assert.deepEqual({ replicas: agent.replicas, placement: agent.placement }, { replicas: 3, placement: {} });
  });
});

describe('simulator inputs of a workload simulated with fewer replicas than it has', () => {
  const withPods = (replicas: number, nodes: string[], podsPerNode: number) => {
    const cluster = demoCluster();
    const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'bulk', namespace: 'default' }, spec: { replicas, selector: { matchLabels: { app: 'bulk' } }, template: { metadata: { labels: { app: 'bulk' } }, spec: { containers: [{ name: 'c', image: 'x' }] } } } };
    const pods = nodes.flatMap((node) => Array.from({ length: podsPerNode }, (_, i) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: `bulk-${node}-${i}`, namespace: 'default', labels: { app: 'bulk' } }, spec: { nodeName: node, containers: [{ name: 'c', image: 'x' }] }, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } })));
    const inventory = new Inventory();
    inventory.setCluster([...cluster.resources, ...[deployment, ...pods].map((o) => resourceFromObject(o)!)]);
    return buildSimInputs(inventory, cluster).workloads.find((w) => w.name === 'bulk')!;
  };

  it('scales the pods observed on each node to that count (16,667 of 10,000 were lost with one node)', () => {
    const bulk = withPods(12_000, ['worker-a1', 'worker-a2', 'worker-b1'], 4_000);
    assert.equal(bulk.replicas, 10_000);
    assert.deepEqual(bulk.placement, { 'worker-a1': 3334, 'worker-a2': 3333, 'worker-b1': 3333 });
  });

  it('places none where it is simulated with none (replicas -3)', () => {
    const bulk = withPods(-3, ['worker-a1'], 3);
    assert.deepEqual({ replicas: bulk.replicas, placement: bulk.placement }, { replicas: 0, placement: {} });
  });
});

describe('simulator inputs: the budgets over a workload\'s pods', () => {
  const pdb = (name: string, budget: string) => `apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: ${name}\n  namespace: shop\nspec:\n${budget}  selector:\n    matchLabels:\n      app: web\n`;
  const web = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: shop\nspec:\n  replicas: 3\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n        - name: web\n          image: nginx\n';
  const budgetOf = (...documents: string[]) => {
    const inventory = new Inventory();
    inventory.setFile(parseManifest('file:///shop.yaml', documents.join('---\n')));
    return buildSimInputs(inventory, undefined).workloads.find((w) => w.name === 'web')!.disruptionBudget;
  };

  it('one budget: it, and nothing else', () => {
    assert.deepEqual(budgetOf(web, pdb('web', '  maxUnavailable: 1\n')), { pdb: 'shop/web', budget: { field: 'maxUnavailable', value: { kind: 'int', value: 1 } } });
  });

  it('a budget that states none allows no eviction, as the disruption controller has it (pdb-no-budget): it allowed every one', () => {
    assert.deepEqual(budgetOf(web, pdb('web', '')), { pdb: 'shop/web', budget: { field: 'maxUnavailable', value: { kind: 'int', value: 0 } } });
  });

  it('a budget the API server rejects is none: it is never created (it was read as allowing no eviction, beside another as a second budget)', () => {
    assert.equal(budgetOf(web, pdb('bad', '  minAvailable: 2\n  maxUnavailable: 1\n')), undefined);
    assert.deepEqual(budgetOf(web, pdb('web', '  maxUnavailable: 1\n'), pdb('bad', '  minAvailable: "2"\n')), { pdb: 'shop/web', budget: { field: 'maxUnavailable', value: { kind: 'int', value: 1 } } });
  });

  it('unhealthyPodEvictionPolicy AlwaysAllow is carried with the budget (policy/v1 only)', () => {
    assert.deepEqual(budgetOf(web, pdb('web', '  maxUnavailable: 1\n  unhealthyPodEvictionPolicy: AlwaysAllow\n')), { pdb: 'shop/web', budget: { field: 'maxUnavailable', value: { kind: 'int', value: 1 } }, alwaysAllowUnhealthy: true });
    assert.equal(budgetOf(web, pdb('web', '  maxUnavailable: 1\n  unhealthyPodEvictionPolicy: AlwaysAllow\n').replace('policy/v1', 'policy/v1beta1'))?.alwaysAllowUnhealthy, undefined);
  });

  it('local storage as the autoscaler counts it: not a memory-backed emptyDir, nor a volume named safe to evict', () => {
    const withVolume = (volume: string, annotations = '') => {
      const text = web.replace('    metadata:\n      labels:', `    metadata:\n${annotations}      labels:`).replace('      containers:', `      volumes:\n        - name: scratch\n          ${volume}\n      containers:`);
      const inventory = new Inventory();
      inventory.setFile(parseManifest('file:///shop.yaml', text));
      return buildSimInputs(inventory, undefined).workloads.find((w) => w.name === 'web')!.localStorage;
    };
    assert.equal(withVolume('emptyDir: {}'), true);
    assert.equal(withVolume('hostPath: {path: /var/log}'), true);
    assert.equal(withVolume('emptyDir: {medium: Memory}'), undefined);
    assert.equal(withVolume('emptyDir: {}', '      annotations:\n        cluster-autoscaler.kubernetes.io/safe-to-evict-local-volumes: "scratch, other"\n'), undefined);
  });

  it('two budgets: the first that states one, and the other named (the eviction API then evicts none of its pods)', () => {
    assert.deepEqual(budgetOf(web, pdb('web', '  maxUnavailable: 1\n'), pdb('second', '  maxUnavailable: 0\n')), { pdb: 'shop/web', budget: { field: 'maxUnavailable', value: { kind: 'int', value: 1 } }, others: ['shop/second'] });
  });
});

describe('simulator inputs: budgets that pick pods of a StatefulSet out by name (statefulset.kubernetes.io/pod-name)', () => {
  const web = 'apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: web\n  namespace: shop\nspec:\n  replicas: 3\n  serviceName: web\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n        - name: web\n          image: nginx\n';
  const byName = (pod: string, budget = 'maxUnavailable: 0') =>
    `apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: ${pod}\n  namespace: shop\nspec:\n  ${budget}\n  selector:\n    matchLabels:\n      statefulset.kubernetes.io/pod-name: ${pod}\n`;
  const none = { field: 'maxUnavailable', value: { kind: 'int', value: 0 } };
  const webOf = (...documents: string[]) => inputsOfManifest('file:///shop.yaml', documents.join('---\n')).workloads.find((w) => w.name === 'web')!;

  it('one per pod: each budget with the pod it selects, none over every pod, and the pods named where they are assumed to run', () => {
    const w = webOf(web, byName('web-0'), byName('web-1'), byName('web-2'));
    assert.equal(w.disruptionBudget, undefined);
    assert.deepEqual(w.podBudgets, ['web-0', 'web-1', 'web-2'].map((pod) => ({ pdb: `shop/${pod}`, budget: none, pods: [pod] })));
    assert.deepEqual(Object.values(w.podNames!).flat().sort(), ['web-0', 'web-1', 'web-2']);
    assert.deepEqual(Object.fromEntries(Object.entries(w.podNames!).map(([node, names]) => [node, names.length])), w.placement);
    assert.equal(w.pdb, true);
  });

  it('one over pod 0 only: that budget, over web-0; pods 1 and 2 have none', () => {
    const w = webOf(web, byName('web-0', 'minAvailable: 1'));
    assert.deepEqual(w.podBudgets, [{ pdb: 'shop/web-0', budget: { field: 'minAvailable', value: { kind: 'int', value: 1 } }, pods: ['web-0'] }]);
    assert.equal(w.disruptionBudget, undefined);
  });

  it('one over every pod but web-0 (its template\'s labels and NotIn [web-0]): over web-1 and web-2 only, so minAvailable 2 lets none of them go, and web-0 goes freely', () => {
    const rest = 'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: rest\n  namespace: shop\nspec:\n  minAvailable: 2\n  selector:\n    matchLabels: {app: web}\n    matchExpressions:\n      - {key: statefulset.kubernetes.io/pod-name, operator: NotIn, values: [web-0]}\n';
    const inputs = inputsOfManifest('file:///shop.yaml', [web, rest].join('---\n'));
    const w = inputs.workloads.find((x) => x.name === 'web')!;
    assert.equal(w.disruptionBudget, undefined);
    assert.deepEqual(w.podBudgets, [{ pdb: 'shop/rest', budget: { field: 'minAvailable', value: { kind: 'int', value: 2 } }, pods: ['web-1', 'web-2'] }]);
    const nodeOf = (pod: string) => Object.entries(w.podNames!).find(([, names]) => names.includes(pod))![0];
    const drain = (pod: string) => simulate(inputs.topology, inputs.workloads, { fail: { kind: 'none' }, duration: 3600, events: [{ kind: 'drain', node: nodeOf(pod), at: 0 }] }).drains![0];
    assert.equal(drain('web-1').blocked[0]?.pdb, 'shop/rest');
    assert.deepEqual(drain('web-0').blocked, []);
  });

  it('a drain of the node of web-0 never finishes: its budget refuses it, while a drain of the node of web-1 evicts web-1', () => {
    const inputs = inputsOfManifest('file:///shop.yaml', [web, byName('web-0')].join('---\n'));
    const w = inputs.workloads.find((x) => x.name === 'web')!;
    const nodeOf = (pod: string) => Object.entries(w.podNames!).find(([, names]) => names.includes(pod))![0];
    const drain = (pod: string) => simulate(inputs.topology, inputs.workloads, { fail: { kind: 'none' }, duration: 3600, events: [{ kind: 'drain', node: nodeOf(pod), at: 0 }] }).drains![0];
    assert.deepEqual(drain('web-0').blocked, [{ workload: 'shop/web', pdb: 'shop/web-0', from: 0, to: null, untilReady: false }]);
    assert.equal(drain('web-0').end, null);
    assert.deepEqual(drain('web-1').blocked, []);
    assert.notEqual(drain('web-1').end, null);
  });

  it('from a cluster: the pods named where they run, and the scale-down of the node of a pod whose budget allows none refused', () => {
    const object = (text: string) => parseManifest('file:///x.yaml', text).resources[0].object;
    const pod = (name: string, node: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'shop', labels: { app: 'web', 'statefulset.kubernetes.io/pod-name': name }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: 'web-uid', controller: true }] }, spec: { nodeName: node, containers: [{ name: 'web', image: 'nginx' }] }, status: { phase: 'Running' } });
    const demo = demoCluster();
    const read = [...[web, byName('web-1')].map(object), pod('web-0', 'worker-b1'), pod('web-1', 'worker-a1'), pod('web-2', 'worker-a2')];
    const resources = [...demo.resources.filter((r) => r.kind === 'Node'), ...read.map((o) => resourceFromObject(o)!)];
    const inventory = new Inventory();
    inventory.setCluster(resources);
    const inputs = buildSimInputs(inventory, { ...demo, resources });
    const w = inputs.workloads.find((x) => x.name === 'web')!;
    assert.deepEqual(w.podNames, { 'worker-b1': ['web-0'], 'worker-a1': ['web-1'], 'worker-a2': ['web-2'] });
    const scaleDown = (node: string) => simulate(inputs.topology, inputs.workloads, { fail: { kind: 'none' }, duration: 600, events: [{ kind: 'scale-down', node, at: 0 }] }).drains![0].notRemovedBecause;
    assert.equal(scaleDown('worker-a1'), 'the PodDisruptionBudget shop/web-1 of shop/web allows no disruption (it needs 3 healthy and 1 is)');
    assert.equal(scaleDown('worker-a2'), null, 'web-2 has no budget');
  });

  it('a budget over a Job by its name selects every pod of it: its budget, as one over all of them', () => {
    const job = 'apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: once\n  namespace: shop\nspec:\n  template:\n    metadata:\n      labels:\n        app: once\n    spec:\n      restartPolicy: Never\n      containers:\n        - name: job\n          image: busybox\n';
    const pdb = 'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: once\n  namespace: shop\nspec:\n  minAvailable: 1\n  selector:\n    matchLabels:\n      job-name: once\n';
    const once = inputsOfManifest('file:///shop.yaml', [job, pdb].join('---\n')).workloads.find((w) => w.name === 'once')!;
    assert.deepEqual(once.disruptionBudget, { pdb: 'shop/once', budget: { field: 'minAvailable', value: { kind: 'int', value: 1 } } });
    assert.equal(once.podBudgets, undefined);
  });
});

describe('simulator inputs: replica counts it can follow', () => {
  const web = (replicas: string) => `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: shop\nspec:\n  replicas: ${replicas}\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n        - name: web\n          image: nginx\n`;
  const inputsOf = (replicas: string) => {
    const inventory = new Inventory();
    inventory.setFile(parseManifest('file:///shop.yaml', web(replicas)));
    return buildSimInputs(inventory, undefined);
  };

  for (const [written, simulated] of [['1000000000', 10_000], ['-1', 0], ['2.5', 2]] as const) {
    it(`${written} replicas are simulated as ${simulated}, and said so (a billion ran out of memory; -1 said "Serving -1/-1")`, () => {
      const { workloads, topology } = inputsOf(written);
      assert.equal(workloads.find((w) => w.name === 'web')!.replicas, simulated);
      assert.ok(topology.assumptions.includes(`shop/web (Deployment) has ${Number(written)} replicas: simulated as ${simulated}`), topology.assumptions.join('\n'));
    });
  }

  it('3 replicas are 3, with nothing said', () => {
    const { workloads, topology } = inputsOf('3');
    assert.equal(workloads.find((w) => w.name === 'web')!.replicas, 3);
    assert.ok(!topology.assumptions.some((a) => a.includes('simulated as')));
  });
});

describe('simulator inputs from a cluster listing a node twice', () => {
  it('counts it once and says so (it was upgraded and drained twice)', () => {
    const cluster = demoCluster();
    const inventory = new Inventory();
    const node = cluster.resources.find((r) => r.kind === 'Node' && r.name === 'worker-a2')!;
    inventory.setCluster([...cluster.resources, resourceFromObject(structuredClone(node.object))!]);
    const { topology } = buildSimInputs(inventory, cluster);
    assert.equal(topology.nodes.filter((n) => n.name === 'worker-a2').length, 1);
    assert.ok(topology.assumptions.includes('1 node listed twice counted once'), topology.assumptions.join('\n'));
  });
});

describe('simulator inputs from a cluster whose nodes could not be read', () => {
  it('takes the nodes its pods run on (the control plane where its static pods are), not assumed ones their pods never name', () => {
    const cluster = demoCluster();
    const inventory = new Inventory();
    inventory.setCluster(cluster.resources.filter((r) => r.kind !== 'Node'));
    const { topology } = buildSimInputs(inventory, cluster);
    assert.deepEqual(topology.nodes.map((n) => `${n.name}${n.controlPlane ? ' (control plane)' : ''}`), ['cp-1 (control plane)', 'gpu-b1', 'worker-a1', 'worker-a2', 'worker-b1']);
    assert.ok(topology.assumptions.some((a) => a.startsWith('the cluster listed no nodes: its pods run on 5 nodes (cp-1, gpu-b1, worker-a1, worker-a2, worker-b1)')), topology.assumptions.join('\n'));
  });

  /** What the simulation first assumes of the demo cluster when `resource` was refused. */
  const saidOfRefused = (resource: string) => {
    const demo = demoCluster();
    const inventory = new Inventory();
    inventory.setCluster(demo.resources);
    return buildSimInputs(inventory, { ...demo, missing: [{ resource, reason: 'forbidden (403)' }] }).topology.assumptions[0];
  };

  it('says of a refused type it does not know that it is left out (one named constructor was said with JavaScript\'s source)', () => {
    assert.equal(saidOfRefused('constructor'), 'constructor could not be read (forbidden (403)): left out');
  });

  it('says of KEDA ScaledObjects it could not read that the workloads count their own replicas', () => {
    assert.equal(saidOfRefused('scaledobjects'), "scaledobjects could not be read (forbidden (403)): replica counts are the workloads' own, as if KEDA scaled none of them");
  });

  it('places the pods of a node named __proto__ on it, as those of any other name (a snapshot can hold one)', () => {
    const demo = demoCluster();
    const renamed = demo.resources.map((r) => resourceFromObject(JSON.parse(JSON.stringify(r.object).replaceAll('"worker-a1"', '"__proto__"')))!);
    const inventory = new Inventory();
    inventory.setCluster(renamed);
    const api = buildSimInputs(inventory, { ...demo, resources: renamed }).workloads.find((w) => w.name === 'orders-api')!;
    assert.deepEqual(Object.entries(api.placement).sort(), [['__proto__', 1], ['worker-a2', 1], ['worker-b1', 1]]);
  });

  it('says which types the cluster refused, first, and what stands in for them (a read refused is no empty cluster)', () => {
    const demo = demoCluster();
    const cluster: ClusterInfo = { ...demo, resources: demo.resources.filter((r) => r.kind !== 'Node' && r.kind !== 'Pod'), missing: [{ resource: 'nodes', reason: 'forbidden (403)' }, { resource: 'pods', reason: 'forbidden (403)' }] };
    const inventory = new Inventory();
    inventory.setCluster(cluster.resources);
    const { topology } = buildSimInputs(inventory, cluster);
    assert.deepEqual(topology.assumptions.slice(0, 3), [
      'nodes could not be read (forbidden (403)): the nodes are assumed below',
      "pods could not be read (forbidden (403)): each workload's pods are placed as assumed below and counted from its spec, all running and ready (its status may say fewer)",
      'no node could be read: assumed 1 control-plane node (control-plane) and 3 workers (worker-1…3), linux/amd64',
    ]);
  });
});

describe('simulator inputs: API servers the default/kubernetes EndpointSlice does not list', () => {
  const node = (name: string, address: string, controlPlane = true) => ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: controlPlane ? { 'node-role.kubernetes.io/control-plane': '' } : {} },
    status: { addresses: [{ type: 'InternalIP', address }], conditions: [{ type: 'Ready', status: 'True' }] },
  });
  const slice = (...addresses: string[]) => ({
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name: 'kubernetes', namespace: 'default', labels: { 'kubernetes.io/service-name': 'kubernetes' } },
    ports: [{ port: 6443 }],
    endpoints: addresses.map((a) => ({ addresses: [a] })),
  });
  const haCluster = (...listed: string[]) => {
    const objects = [node('cp-1', '10.0.0.1'), node('cp-2', '10.0.0.2'), node('cp-3', '10.0.0.3'), node('worker-1', '10.0.1.1', false), slice(...listed)];
    const cluster = snapshotFromValue({ apiVersion: 'v1', kind: 'List', items: objects }, 'ha');
    const inventory = new Inventory();
    inventory.setCluster(cluster.resources);
    return buildSimInputs(inventory, cluster);
  };
  const apiAfterLosingCp1 = (inputs: ReturnType<typeof haCluster>) =>
    simulate(inputs.topology, inputs.workloads, { fail: { kind: 'nodes', nodes: ['cp-1'] }, duration: 3600, events: [] })
      .components.find((c) => c.name === 'api')!
      .states.map((s) => s.state);

  it('takes those of cp-2 and cp-3 as down from the start, and says so: losing cp-1 then stops the API (it survived on them)', () => {
    const oneServing = haCluster('10.0.0.1');
    assert.deepEqual(oneServing.topology.apiServersDown, ['cp-2', 'cp-3']);
    assert.ok(oneServing.topology.assumptions.includes('the default/kubernetes EndpointSlice does not list the API servers of cp-2, cp-3: not serving when the cluster was read, so down from the start'), oneServing.topology.assumptions.join('\n'));
    assert.ok(apiAfterLosingCp1(oneServing).includes('down'), String(apiAfterLosingCp1(oneServing)));
    assert.ok(!apiAfterLosingCp1(haCluster('10.0.0.1', '10.0.0.2', '10.0.0.3')).includes('down'));
  });

  it('takes nothing as down when the slice lists an address no control-plane node has (an API server advertised elsewhere)', () => {
    assert.equal(haCluster('10.0.0.1', '192.168.7.7').topology.apiServersDown, undefined);
  });
});

/** A CoreDNS Deployment of `replicas`, known from its manifest alone. */
const coreDnsDeployment = (replicas: number) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: coredns, namespace: kube-system}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {k8s-app: kube-dns}}
  template:
    metadata: {labels: {k8s-app: kube-dns}}
    spec: {containers: [{name: coredns, image: registry.k8s.io/coredns/coredns:v1.11.1}]}
`;

describe('simulator inputs: a CoreDNS known from its manifest alone', () => {
  const { topology, workloads } = inputsOfManifest('file:///coredns.yaml', coreDnsDeployment(3));

  it('is the cluster DNS, placed where that workload is (cluster DNS and its workload were placed apart)', () => {
    const coredns = workloads.find((w) => w.name === 'coredns')!;
    assert.equal(coredns.clusterDns, true);
    const placed = Object.entries(coredns.placement).flatMap(([node, count]) => Array<string>(count).fill(node));
    assert.equal(placed.length, 3);
    assert.deepEqual([...topology.coreDnsNodes].sort(), placed.sort());
    assert.ok(!topology.assumptions.some((a) => /CoreDNS placement unknown/.test(a)));
  });

  it('so a reboot of a node it runs on is felt by cluster DNS and the workload alike', () => {
    const node = topology.coreDnsNodes[0];
    const result = simulate(topology, workloads, { fail: { kind: 'apiserver' }, duration: 3600, events: [{ kind: 'node-reboot', node, at: 600 }] });
    const dns = result.timeline.filter((e) => e.subject.type === 'component' && e.subject.name === 'dns' && e.at === 600);
    assert.deepEqual(dns.map((e) => e.state), ['degraded']);
    assert.ok(result.workloads.find((w) => w.name === 'coredns')!.capacity.some((p) => p.at === 600 && p.ready < p.desired));
  });
});

describe('simulator inputs: a CoreDNS scaled to zero', () => {
  const { topology, workloads } = inputsOfManifest('file:///coredns.yaml', coreDnsDeployment(0));

  it('is cluster DNS with no replica, not DNS assumed placed elsewhere', () => {
    assert.deepEqual(topology.coreDnsNodes, []);
    assert.equal(topology.clusterDnsWithoutReplicas, 'kube-system/coredns runs no replica (replicas: 0)');
  });

  it('so cluster DNS is down from the start, named why, whatever the outage (it was "ok" throughout)', () => {
    const result = simulate(topology, workloads, { fail: { kind: 'apiserver' }, duration: 3600, events: [{ kind: 'coredns-restart', at: 1200 }] });
    const dns = result.timeline.filter((e) => e.subject.type === 'component' && e.subject.name === 'dns');
    assert.deepEqual(dns.map((e) => [e.at, e.state]), [[0, 'down']]);
    assert.match(dns[0].reason, /^kube-system\/coredns runs no replica \(replicas: 0\): no cluster name resolves/);
  });
});

describe('simulator inputs: the stock CoreDNS manifest and no cluster (its pods select kubernetes.io/os: linux)', () => {
  const { topology, workloads } = inputsOfManifest('file:///coredns.yaml', coreDnsDeployment(2).replace('    spec: {containers:', '    spec: {nodeSelector: {kubernetes.io/os: linux}, containers:'));

  it('runs on the assumed nodes, which carry the labels every kubelet sets (no node took it, and DNS was said to run "no replica (replicas: 0)")', () => {
    assert.equal(topology.coreDnsNodes.length, 2);
    assert.equal(topology.clusterDnsWithoutReplicas, undefined);
    assert.ok(topology.assumptions.some((a) => /linux\/amd64/.test(a)), topology.assumptions.join('\n'));
    const result = simulate(topology, workloads, { fail: { kind: 'none' }, duration: 600, events: [] });
    assert.deepEqual(result.timeline.filter((e) => e.subject.type === 'component' && e.subject.name === 'dns' && e.state !== 'ok'), []);
  });

  it('on a node it cannot run on (Windows), is said to run no replica for that reason, not for replicas: 0', () => {
    const windows = inputsOfManifest('file:///coredns.yaml', coreDnsDeployment(2).replace('    spec: {containers:', '    spec: {nodeSelector: {kubernetes.io/os: windows}, containers:'));
    assert.equal(windows.topology.clusterDnsWithoutReplicas, 'kube-system/coredns runs no replica: no node of the cluster can run its pods, so they stay Pending');
  });
});
