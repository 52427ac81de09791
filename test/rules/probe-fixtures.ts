/** A Deployment `web` whose single container is `container` (YAML lines indented for the containers list). */
export function deploymentWith(container: string, annotations = ''): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
${annotations}spec:
  replicas: 2
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
${container}`;
}

/** Indents a YAML block by `spaces` (container bodies are written flush left in the tests). */
export function indent(block: string, spaces = 8): string {
  return block
    .split('\n')
    .map((line) => (line ? ' '.repeat(spaces) + line : line))
    .join('\n');
}

export const SERVICE_WEB = `apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector:
    app: web
  ports:
    - port: 80
      targetPort: http
`;
