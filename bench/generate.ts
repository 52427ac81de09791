/**
 * A large, realistic multi-document manifest: Deployments (some with one replica, some with a PDB),
 * Services, ConfigMaps and HPAs, with comments, until the text has at least `lines` lines.
 */
export function generateManifests(lines: number): string {
  const parts: string[] = [];
  let count = 0;
  for (let i = 0; count < lines; i++) {
    const name = `svc-${i}`;
    const replicas = i % 3 === 0 ? 1 : 3;
    const doc = `# ${name}: generated workload ${i}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: team-${i % 7}
  labels:
    app: ${name}
spec:
  replicas: ${replicas} # tuned by hand
  selector:
    matchLabels:
      app: ${name}
  template:
    metadata:
      labels:
        app: ${name}
    spec:
      containers:
        - name: app
          image: "registry.example/${name}:1.${i}"
          ports:
            - name: http
              containerPort: 8080
          readinessProbe:
            httpGet: {path: /ready, port: http}
          livenessProbe:
            httpGet: {path: /live, port: http}
          resources:
            requests: {cpu: 100m, memory: 128Mi}
            limits: {memory: 256Mi}
---
apiVersion: v1
kind: Service
metadata:
  name: ${name}
  namespace: team-${i % 7}
spec:
  selector:
    app: ${name}
  ports:
    - port: 80
      targetPort: http
${
  i % 2 === 0
    ? `---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: ${name}
  namespace: team-${i % 7}
spec:
  maxUnavailable: 1
  selector:
    matchLabels:
      app: ${name}
`
    : `---
apiVersion: v1
kind: ConfigMap
metadata:
  name: ${name}-settings
  namespace: team-${i % 7}
data:
  level: "info"
  summary: "{{ $labels.instance }} is slow"
`
}---
`;
    parts.push(doc);
    count += doc.split('\n').length - 1;
  }
  return parts.join('');
}
