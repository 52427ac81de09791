// Builders of the small manifests rule tests need, written the way people write them.

export interface DeploymentOptions {
  name?: string;
  kind?: 'Deployment' | 'StatefulSet' | 'DaemonSet';
  namespace?: string;
  /** Lines under `spec:` before `selector:`, indented by two (`  replicas: 3\n`). */
  spec?: string;
  /** Lines under the pod template's `spec:` before `containers:`, indented by six. */
  podSpec?: string;
  /** Lines under the pod template's `metadata:` after `labels`, indented by six. */
  podMetadata?: string;
  /** Lines of the first container after `image:`, indented by ten. */
  container?: string;
  app?: string;
  /** The first container's image (default nginx:1.27). */
  image?: string;
}

export function deployment(o: DeploymentOptions = {}): string {
  const name = o.name ?? 'web';
  const app = o.app ?? name;
  const namespace = o.namespace ? `\n  namespace: ${o.namespace}` : '';
  return `apiVersion: apps/v1
kind: ${o.kind ?? 'Deployment'}
metadata:
  name: ${name}${namespace}
spec:
${o.spec ?? ''}  selector:
    matchLabels:
      app: ${app}
  template:
    metadata:
      labels:
        app: ${app}
${o.podMetadata ?? ''}    spec:
${o.podSpec ?? ''}      containers:
        - name: ${name}
          image: ${o.image ?? 'nginx:1.27'}
${o.container ?? ''}`;
}

export function pdb(budget: string, o: { name?: string; namespace?: string; selector?: string } = {}): string {
  const namespace = o.namespace ? `\n  namespace: ${o.namespace}` : '';
  return `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: ${o.name ?? 'web-pdb'}${namespace}
spec:
${budget}  selector:
${o.selector ?? '    matchLabels:\n      app: web\n'}`;
}

export function hpa(o: { target?: string; kind?: string; min?: number; max?: number; namespace?: string } = {}): string {
  const target = o.target ?? 'web';
  const namespace = o.namespace ? `\n  namespace: ${o.namespace}` : '';
  return `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: ${target}${namespace}
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: ${o.kind ?? 'Deployment'}
    name: ${target}
${o.min === undefined ? '' : `  minReplicas: ${o.min}\n`}  maxReplicas: ${o.max ?? 10}
`;
}

/** A KEDA ScaledObject of the Deployment `target` (by KEDA's defaults: no apiVersion nor kind); `spec` holds lines under spec before triggers. */
export function scaledObject(o: { target?: string; spec?: string; annotations?: string } = {}): string {
  const target = o.target ?? 'web';
  const annotations = o.annotations ? `\n  annotations:\n${o.annotations}` : '';
  return `apiVersion: keda.sh/v1alpha1
kind: ScaledObject
metadata:
  name: ${target}${annotations}
spec:
  scaleTargetRef:
    name: ${target}
${o.spec ?? ''}  triggers:
    - type: cpu
      metricType: Utilization
      metadata:
        value: "60"
`;
}

export function service(o: { name?: string; app?: string; extra?: string } = {}): string {
  return `apiVersion: v1
kind: Service
metadata:
  name: ${o.name ?? 'web'}
spec:
  selector:
    app: ${o.app ?? 'web'}
${o.extra ?? ''}  ports:
    - port: 80
      targetPort: 8080
`;
}

export const documents = (...docs: string[]): string => docs.join('---\n');

/** A Pod no controller owns, labelled app: web. */
export function barePod(name: string): string {
  return `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\n  labels:\n    app: web\nspec:\n  containers:\n    - name: web\n      image: nginx:1.27\n`;
}
