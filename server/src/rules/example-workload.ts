/** The Deployment `orders` the rule docs' examples share: its container list items (indented 8 spaces), and annotations (2). */
export function exampleDeployment(containers: string, annotations = ''): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: orders
${annotations ? `  annotations:\n${annotations}` : ''}spec:
  replicas: 3
  selector:
    matchLabels:
      app: orders
  template:
    metadata:
      labels:
        app: orders
    spec:
      containers:
${containers}`;
}
