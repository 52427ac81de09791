/** A workload `web` (pods labelled app: web) with extra spec lines, pod-spec lines and the containers list's items. */
export function workloadYaml(kind: string, spec: string, podSpec: string, containers: string, annotations = ''): string {
  return `apiVersion: apps/v1
kind: ${kind}
metadata:
  name: web
${annotations}spec:
${spec}  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
${podSpec}      containers:
${containers}`;
}

/** A Deployment `web` with 2 replicas whose containers are `container` (YAML lines indented for the containers list). */
export function deploymentWith(container: string, annotations = ''): string {
  return workloadYaml('Deployment', '  replicas: 2\n', '', container, annotations);
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
