import { exampleDeployment } from './example-workload';

/** Examples for the disruption rules' docs, around the `orders` Deployment of `exampleDeployment`. */

export const ORDERS_CONTAINER = `        - name: app
          image: example/orders:2.3
          ports:
            - containerPort: 8080
          resources:
            requests: {cpu: 250m, memory: 256Mi}
            limits: {memory: 512Mi}
`;

export const ordersDeployment = (annotations = ''): string => exampleDeployment(ORDERS_CONTAINER, annotations);

/** A PodDisruptionBudget for the orders pods: `spec` lines (indented by two) go before its selector. */
export function examplePdb(spec: string, name = 'orders-pdb', app = 'orders'): string {
  return `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: ${name}
spec:
${spec}  selector:
    matchLabels:
      app: ${app}
`;
}

/** An HPA scaling the orders Deployment; `range` holds its minReplicas/maxReplicas lines. */
export function exampleHpa(range: string): string {
  return `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: orders
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: orders
${range}  metrics:
    - type: Resource
      resource:
        name: cpu
        target: {type: Utilization, averageUtilization: 70}
`;
}

export const documents = (...docs: string[]): string => docs.join('---\n');
