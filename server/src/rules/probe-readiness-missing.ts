import { setField } from '../fixes/yaml-edit';
import type { Resource } from '../manifest/parse';
import { declaredPorts, derivedReadinessProbe, describeHandler, isAuxiliaryPort, probeHandler, timedUnderLiveness, type DeclaredPort } from '../manifest/probe';
import { describeContainer, isHelmHook, runningContainersOf } from '../manifest/workload';
import type { Rule } from './types';
import { exampleDeployment } from './example-workload';

/** Batch pods run to completion; nothing routes requests to them. */
const BATCH_KINDS = new Set(['Job', 'CronJob']);

function describePort(port: DeclaredPort): string {
  return port.name ? `${port.name} ${port.containerPort}` : String(port.containerPort);
}

/** Proxies and helpers beside the app (metrics auth, service mesh, config reload): readiness belongs to the app they sit next to. */
const SIDECAR_IMAGE = /(^|\/)(kube-rbac-proxy|proxyv2|linkerd2?-proxy|cloud-?sql-proxy|prometheus-config-reloader|configmap-reload|config-reloader)(:|@|$)/i;

/** Service ports that only serve scraping (a `metrics` port) do not make a container serve traffic. */
function servingServicePorts(service: Resource): any[] {
  const servicePorts = Array.isArray(service.object?.spec?.ports) ? service.object.spec.ports : [];
  return servicePorts.filter((sp: any) => sp && typeof sp === 'object' && !(typeof sp.name === 'string' && isAuxiliaryPort({ name: sp.name, containerPort: 0, protocol: 'TCP' })));
}

/** The container's ports that a Service sends traffic to (targetPort by name or number; a missing targetPort is the port). */
function portsServiceTargets(service: Resource, ports: DeclaredPort[]): DeclaredPort[] {
  const servicePorts = servingServicePorts(service);
  return ports.filter((port) =>
    servicePorts.some((sp: any) => {
      const target = sp?.targetPort ?? sp?.port;
      return typeof target === 'number' ? target === port.containerPort : /^\d+$/.test(String(target)) ? Number(target) === port.containerPort : target === port.name;
    }),
  );
}

export const probeReadinessMissing: Rule = {
  meta: {
    id: 'probe-readiness-missing',
    severity: 'warning',
    scenario: 'health-checks',
    title: 'A serving container has no readiness probe',
    description:
      "Without a readiness probe a pod counts as ready the moment its process starts. Services and load balancers then send it requests before it can answer, on every rollout, every restart and every rescheduling after a node drain or crash, and keep sending them while it is overloaded or cut off from its dependencies. During a rolling update the Deployment also treats the new pod as available at once and removes an old one, so a broken version replaces a working one without resistance. Not asked of: Jobs and CronJobs, DaemonSets that no Service selects (node agents), containers whose only ports serve metrics, containers a Service selects on none of their ports (beside the one that serves), sidecar proxies (kube-rbac-proxy, mesh proxies, config reloaders), and Helm hooks and test pods (`helm.sh/hook`), which run once and serve nothing.",
    fix: 'Adds a readiness probe derived from the container: `httpGet` on a port named `http*` (the framework\'s readiness path when liveness uses a framework\'s liveness path, else `/`), otherwise `tcpSocket` on the first TCP port. When that is the liveness probe\'s own handler, the readiness probe gives up in a third of the time liveness takes (`periodSeconds`, `failureThreshold`), so that the two are not one probe. Offers nothing when no port can be derived, or when liveness gives up on that handler in under 3 s.',
    example: exampleDeployment(
      `        - name: app
          image: example/orders:2.1
          ports:
            - name: http
              containerPort: 8080
`,
    ),
  },
  check({ resources, inventory, report }) {
    for (const resource of resources) {
      if (BATCH_KINDS.has(resource.kind) || isHelmHook(resource)) continue;
      // A native sidecar serves as a container does, and its readiness counts towards the pod's.
      const containers = runningContainersOf(resource);
      const services = inventory.servicesFronting(resource).filter((service) => servingServicePorts(service).length > 0);
      // A DaemonSet no Service selects is a node agent: nothing routes requests to it.
      if (resource.kind === 'DaemonSet' && !services.length) continue;
      for (const { container, path, name } of containers) {
        if (container.readinessProbe || SIDECAR_IMAGE.test(String(container.image ?? ''))) continue;
        const ports = declaredPorts(container);
        const targeted = services.flatMap((service) => portsServiceTargets(service, ports).map((port) => ({ service, port })));
        let serving: string | undefined;
        if (targeted.length) serving = `Service ${targeted[0].service.name} sends it traffic on port ${describePort(targeted[0].port)}`;
        else if (services.length && containers.length === 1) serving = `Service ${services[0].name} sends it traffic`;
        else if (!services.length) {
          const open = ports.filter((p) => p.protocol === 'TCP' && !isAuxiliaryPort(p));
          // Honest about the guess: the Service may live in another repository or chart.
          if (open.length) serving = `it declares port ${describePort(open[0])}; no Service in view selects it, so one elsewhere is assumed`;
        }
        if (!serving) continue;
        const probe = timedUnderLiveness(derivedReadinessProbe(container), container);
        const handler = probeHandler(probe, container);
        report({
          resource,
          path: [...path, 'name'],
          target: 'value',
          message: `${describeContainer(resource, name)}: no readiness probe: traffic comes before it is ready. ${serving[0].toUpperCase()}${serving.slice(1)}: the container receives requests as soon as its process starts${resource.kind === 'Pod' ? ' and again after every container restart' : ', on every rollout and every restart after a drain or node failure'}, and keeps receiving them while it cannot answer.`,
          fixes: () => (probe ? [{ title: `Add a readiness probe (${describeHandler(handler!)})`, preferred: true, edits: setField(resource, [...path, 'readinessProbe'], probe) ?? [] }] : []),
        });
      }
    }
  },
};
