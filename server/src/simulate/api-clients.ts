/** Images of programs that talk to the Kubernetes API themselves (controllers, operators, ingress controllers). */
const KNOWN: { pattern: RegExp; what: string; ingress?: boolean }[] = [
  { pattern: /ingress-nginx\/controller|nginx-ingress-controller/, what: 'ingress-nginx controller', ingress: true },
  { pattern: /traefik/, what: 'Traefik ingress controller', ingress: true },
  { pattern: /haproxy-ingress|kubernetes-ingress/, what: 'HAProxy ingress controller', ingress: true },
  { pattern: /contour|envoyproxy\/gateway|istio\/pilot|istiod/, what: 'ingress / mesh control plane', ingress: true },
  { pattern: /cert-manager/, what: 'cert-manager' },
  { pattern: /argoproj\/argocd|argo-cd/, what: 'Argo CD' },
  { pattern: /fluxcd\//, what: 'Flux' },
  { pattern: /external-dns/, what: 'external-dns' },
  { pattern: /cluster-autoscaler/, what: 'cluster autoscaler' },
  { pattern: /karpenter/, what: 'Karpenter' },
  { pattern: /prometheus-operator|prometheus-config-reloader/, what: 'Prometheus operator' },
  { pattern: /kyverno|gatekeeper/, what: 'policy controller' },
  { pattern: /metrics-server/, what: 'metrics-server' },
  { pattern: /kube-state-metrics/, what: 'kube-state-metrics' },
  { pattern: /calico\/kube-controllers|cilium\/operator/, what: 'CNI controller' },
  { pattern: /sig-storage\/csi-(provisioner|attacher|resizer|snapshotter)/, what: 'CSI sidecar' },
  { pattern: /-operator[:@/]|\/operator[:@]/, what: 'an operator' },
  { pattern: /-controller[:@]|controller-manager[:@]/, what: 'a controller' },
];

export function apiClientOf(images: string[]): { what: string; ingress: boolean } | undefined {
  for (const image of images) {
    const hit = KNOWN.find((k) => k.pattern.test(image));
    if (hit) return { what: `${hit.what}, image ${image}`, ingress: !!hit.ingress };
  }
  return undefined;
}
