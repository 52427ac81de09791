// Charts written for the edge cases of rendering, and a way to see a rendered unit's findings where a
// person edits them (template or values file, 1-based line), as the table tests state them.
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { keyPathAt } from '../../server/src/explain/key-path';
import { applyEdits } from '../../server/src/fixes/edit';
import { Inventory } from '../../server/src/inventory/inventory';
import { parseManifest } from '../../server/src/manifest/parse';
import type { Path } from '../../server/src/manifest/path';
import { analyzeFile } from '../../server/src/rules/engine';
import type { Finding } from '../../server/src/rules/types';
import type { RenderedUnit, SourceEdits } from '../../server/src/render/types';
import { readFileSync } from 'node:fs';

export type ChartFiles = Record<string, string>;

/** Writes the files of a chart into a fresh temporary folder and returns the chart's path. */
export function writeChart(files: ChartFiles, name = 'chart'): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'kube-resilience-chart-')), name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** A copy of a chart in a temporary folder, so that fixes may change it. */
export function copyChart(source: string): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'kube-resilience-chart-')), 'chart');
  cpSync(source, dir, { recursive: true });
  return dir;
}

export interface PlacedFinding {
  rule: string;
  /** `templates/deployment.yaml:10`, relative to the chart, 1-based. */
  at: string;
  /** The values line that also shows it, when the value comes from a values key. */
  values?: string;
  origin?: string;
  message: string;
  document: number;
  path: Path;
  finding: Finding;
}

/** Every finding of the rendered unit, placed back in the chart's files. */
export function placedFindings(unit: RenderedUnit): PlacedFinding[] {
  const file = parseManifest('file:///rendered.yaml', unit.text);
  const inventory = new Inventory();
  inventory.setFile(file);
  const place = (location: { path: string; line: number }) => `${relative(unit.root, location.path)}:${location.line + 1}`;
  return analyzeFile(file, inventory).map((finding) => {
    const offset = file.lines.offset(finding.range!.start);
    const document = file.documents.find((d) => d.offset <= offset && offset < d.offset + d.text.length) ?? file.documents[0];
    const resource = document.resources[0];
    const path = (resource && keyPathAt(resource, offset)) || [];
    const [template, values] = unit.mapper.locate(document.index, path);
    return {
      rule: finding.ruleId,
      at: place(template),
      values: values ? place(values) : undefined,
      origin: unit.mapper.origin?.(document.index, path),
      message: finding.message,
      document: document.index,
      path,
      finding,
    };
  });
}

/** Carries out source edits on disk, as a fix would. */
export function applySourceEdits(edits: SourceEdits): void {
  for (const { path, edits: textEdits } of edits.edits) writeFileSync(path, applyEdits(readFileSync(path, 'utf8'), textEdits));
  for (const { path, text } of edits.creates) writeFileSync(path, text);
}

const deploymentTemplate = (name: string, replicas: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "${name}.fullname" . }}
  labels:
    {{- include "${name}.selectorLabels" . | nindent 4 }}
spec:
  replicas: ${replicas}
  selector:
    matchLabels:
      {{- include "${name}.selectorLabels" . | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "${name}.selectorLabels" . | nindent 8 }}
    spec:
      containers:
        - name: app
          image: "{{ .Values.image }}"
          ports:
            - name: http
              containerPort: 8080
          readinessProbe:
            httpGet:
              path: /ready
              port: http
          resources:
            {{- toYaml .Values.resources | nindent 12 }}
      topologySpreadConstraints:
        - maxSkew: 1
          topologyKey: kubernetes.io/hostname
          whenUnsatisfiable: ScheduleAnyway
          labelSelector:
            matchLabels:
              {{- include "${name}.selectorLabels" . | nindent 14 }}
`;

const helpers = (name: string) => `{{- define "${name}.fullname" -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "${name}.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}
`;

const chartYaml = (name: string, extra = '') => `apiVersion: v2
name: ${name}
version: 0.1.0
${extra}`;

const values = (replicas: number) => `# How many pods serve requests.
replicaCount: ${replicas} # raise for redundancy
image: example/app:1.0
resources:
  limits:
    memory: 128Mi
  requests:
    cpu: 10m
    memory: 64Mi
`;

/** A chart like ingress-nginx's: its own PDB template renders only above one replica. */
export const conditionalPdbChart: ChartFiles = {
  'Chart.yaml': chartYaml('gateway'),
  'values.yaml': `controller:
  # One replica by default, as ingress-nginx ships.
  replicaCount: 1
  image: example/gateway:1.0
  minAvailable: 1
`,
  'templates/_helpers.tpl': helpers('gateway'),
  'templates/deployment.yaml': deploymentTemplate('gateway', '{{ .Values.controller.replicaCount }}').replace('{{ .Values.image }}', '{{ .Values.controller.image }}').replace('{{- toYaml .Values.resources | nindent 12 }}', 'limits:\n              memory: 128Mi\n            requests:\n              memory: 128Mi'),
  'templates/pdb.yaml': `{{- if gt (int .Values.controller.replicaCount) 1 }}
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ include "gateway.fullname" . }}
spec:
  selector:
    matchLabels:
      {{- include "gateway.selectorLabels" . | nindent 6 }}
  minAvailable: {{ .Values.controller.minAvailable }}
  unhealthyPodEvictionPolicy: AlwaysAllow
{{- end }}
`,
};

/** A parent chart with a vendored subchart whose replicas the parent's values set. */
export const subchartChart: ChartFiles = {
  'Chart.yaml': chartYaml('shop', 'dependencies:\n  - name: cart\n    version: 0.1.0\n'),
  'values.yaml': `${values(3)}cart:
  # The cart service, deployed with the shop.
  replicaCount: 1
`,
  'templates/_helpers.tpl': helpers('shop'),
  'templates/deployment.yaml': deploymentTemplate('shop', '3'),
  'templates/pdb.yaml': `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ include "shop.fullname" . }}
spec:
  maxUnavailable: 1
  unhealthyPodEvictionPolicy: AlwaysAllow
  selector:
    matchLabels:
      {{- include "shop.selectorLabels" . | nindent 6 }}
`,
  'charts/cart/Chart.yaml': chartYaml('cart'),
  'charts/cart/values.yaml': values(2),
  'charts/cart/templates/_helpers.tpl': helpers('cart'),
  'charts/cart/templates/deployment.yaml': deploymentTemplate('cart', '{{ .Values.replicaCount }}'),
};

/**
 * The cart subchart vendored once, in a folder named otherwise than the chart, and deployed twice under aliases:
 * Helm names each alias's files and values by the alias.
 */
export const aliasedSubchartChart: ChartFiles = {
  'Chart.yaml': chartYaml('shop', 'dependencies:\n  - name: cart\n    version: 0.1.0\n    alias: basket\n  - name: cart\n    version: 0.1.0\n    alias: wishlist\n'),
  'values.yaml': `basket:
  replicaCount: 1
wishlist:
  # Saved for later: one pod is plenty.
  replicaCount: 1
`,
  'charts/cart-0.1.0/Chart.yaml': chartYaml('cart'),
  'charts/cart-0.1.0/values.yaml': values(2),
  'charts/cart-0.1.0/templates/_helpers.tpl': helpers('cart'),
  'charts/cart-0.1.0/templates/deployment.yaml': deploymentTemplate('cart', '{{ .Values.replicaCount }}'),
};

/** A chart whose dependencies were never fetched into charts/. */
export const missingDependencyChart: ChartFiles = {
  'Chart.yaml': chartYaml(
    'store',
    `dependencies:
  - name: postgresql
    version: 15.x.x
    repository: https://charts.bitnami.com/bitnami
  - name: redis
    version: 19.x.x
    repository: oci://registry-1.docker.io/bitnamicharts
`,
  ),
  'values.yaml': values(2),
  'templates/_helpers.tpl': helpers('store'),
  'templates/deployment.yaml': deploymentTemplate('store', '{{ .Values.replicaCount }}'),
};

/** A template that dereferences a values key that does not exist (a nil pointer at execution). */
export const renderErrorChart: ChartFiles = {
  'Chart.yaml': chartYaml('broken'),
  'values.yaml': values(2),
  'templates/_helpers.tpl': helpers('broken'),
  'templates/deployment.yaml': deploymentTemplate('broken', '{{ .Values.replicaCount }}'),
  'templates/configmap.yaml': `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  region: {{ .Values.cloud.region }}
`,
};

/** A chart that insists on a value nobody gave (`required`). */
export const requiredChart: ChartFiles = {
  'Chart.yaml': chartYaml('needy'),
  'values.yaml': values(2),
  'templates/_helpers.tpl': helpers('needy'),
  'templates/deployment.yaml': deploymentTemplate('needy', '{{ .Values.replicaCount }}').replace('"{{ .Values.image }}"', '{{ required "image is required: set it to the app\'s image" .Values.appImage | quote }}'),
};

/** A chart whose only single-replica workloads are a hook Job, a hook Deployment and a test pod. */
export const hooksChart: ChartFiles = {
  'Chart.yaml': chartYaml('migrations'),
  'values.yaml': values(2),
  'templates/_helpers.tpl': helpers('migrations'),
  'templates/deployment.yaml': deploymentTemplate('migrations', '{{ .Values.replicaCount }}'),
  'templates/pdb.yaml': conditionalPdbChart['templates/pdb.yaml'].replace(/gateway/g, 'migrations').replace('gt (int .Values.controller.replicaCount) 1', 'true').replace('{{ .Values.controller.minAvailable }}', '1'),
  'templates/hooks/warmup.yaml': `apiVersion: apps/v1
kind: Deployment
metadata:
  name: warmup
  annotations:
    "helm.sh/hook": pre-install,pre-upgrade
spec:
  replicas: 1
  selector:
    matchLabels:
      app: warmup
  template:
    metadata:
      labels:
        app: warmup
    spec:
      containers:
        - name: warmup
          image: example/warmup:1.0
          ports:
            - name: http
              containerPort: 8080
          resources:
            limits:
              memory: 64Mi
            requests:
              memory: 64Mi
`,
  'templates/tests/connection.yaml': `apiVersion: v1
kind: Pod
metadata:
  name: "{{ include "migrations.fullname" . }}-test"
  labels:
    {{- include "migrations.selectorLabels" . | nindent 4 }}
  annotations:
    "helm.sh/hook": test
spec:
  containers:
    - name: wget
      image: busybox
      command: ['wget', '{{ include "migrations.fullname" . }}:8080']
      ports:
        - name: http
          containerPort: 8080
      resources:
        limits:
          memory: 16Mi
        requests:
          memory: 16Mi
  restartPolicy: Never
`,
  'templates/service.yaml': `apiVersion: v1
kind: Service
metadata:
  name: {{ include "migrations.fullname" . }}
spec:
  selector:
    {{- include "migrations.selectorLabels" . | nindent 4 }}
  ports:
    - port: 8080
      targetPort: http
`,
};

/** A plain Deployment document named `name`, its replicas as written (a literal or a template action). */
const plainDeployment = (name: string, replicas: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
spec:
  replicas: ${replicas}
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
          image: nginx:1.27
          readinessProbe:
            httpGet: {path: /, port: 80}
          resources:
            requests: {memory: 64Mi}
            limits: {memory: 64Mi}
`;

/** One template rendering two Deployments: the first with 4 replicas written there, the second with its count from values. */
export const twoDocumentChart: ChartFiles = {
  'Chart.yaml': 'apiVersion: v2\nname: two\nversion: 0.1.0\n',
  'values.yaml': 'second:\n  replicas: 1\n',
  'templates/two.yaml': `${plainDeployment('first', '4')}---\n${plainDeployment('second', '{{ .Values.second.replicas }}')}`,
};

/** A Deployment written above its Service in one template: helm prints the Service first (it sorts by kind). */
export const deploymentAboveServiceChart: ChartFiles = {
  'Chart.yaml': 'apiVersion: v2\nname: sorted\nversion: 0.1.0\n',
  'templates/app.yaml': `${plainDeployment('web', '1 # one for now')}---
apiVersion: v1
kind: Service
metadata:
  name: web
spec: {selector: {app: web}, ports: [{port: 80}]}
`,
};

/** Literal fields with a comment after them: `replicas: 1 # …` and a quoted `maxSkew`, which fixes set in place. */
export const commentedLiteralsChart: ChartFiles = {
  'Chart.yaml': 'apiVersion: v2\nname: commented\nversion: 0.1.0\n',
  'templates/web.yaml': plainDeployment('web', '1 # one until the cache is shared'),
};

/** replicas from values.yaml under an autoscaler that always renders: the field fights the HPA on every apply. */
export const autoscaledChart: ChartFiles = {
  'Chart.yaml': 'apiVersion: v2\nname: scaled\nversion: 0.1.0\n',
  'values.yaml': '# pods before the autoscaler takes over\nreplicaCount: 3\n',
  'templates/web.yaml': plainDeployment('web', '{{ .Values.replicaCount }} # the HPA owns it once running'),
  'templates/hpa.yaml': `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: web
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 3
  maxReplicas: 6
  metrics:
    - type: Resource
      resource: {name: cpu, target: {type: Utilization, averageUtilization: 80}}
`,
};

/** One `replicaCount` for a web server and its Redis: more web pods is safe, a second Redis is not. */
export const sharedReplicasChart: ChartFiles = {
  'Chart.yaml': 'apiVersion: v2\nname: shop\nversion: 0.1.0\n',
  'values.yaml': '# replicas for every component\nreplicaCount: 1\nwebReplicas: 1\n',
  'templates/web.yaml': plainDeployment('web', '{{ .Values.replicaCount }}'),
  'templates/cache.yaml': plainDeployment('cache', '{{ .Values.replicaCount }}').replace('image: nginx:1.27', 'image: redis:7'),
  'templates/api.yaml': plainDeployment('api', '{{ .Values.webReplicas }}'),
};

/** A Deployment per item of a values list, rendered by one `range`: alpha with 1 replica, beta with 3. */
export const rangeChart: ChartFiles = {
  'Chart.yaml': 'apiVersion: v2\nname: workers\nversion: 0.1.0\n',
  'values.yaml': 'workers:\n  - name: alpha\n    replicas: 1\n  - name: beta\n    replicas: 3\n',
  'templates/workers.yaml': `{{- range .Values.workers }}\n---\n${plainDeployment('worker-{{ .name }}', '{{ .replicas }}').replace('app: worker-{{ .name }}\n  template', 'app: worker-{{ .name }}\n  template')}{{- end }}\n`,
};

/** A memory limit from values.yaml, and no request: a request copied from the limit would part from it under other values. */
export const valuesLimitChart: ChartFiles = {
  'Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n',
  'values.yaml': 'memory: 128Mi\n',
  'templates/web.yaml': plainDeployment('web', '2').replace('            requests: {memory: 64Mi}\n            limits: {memory: 64Mi}\n', '            limits:\n              memory: {{ .Values.memory }}\n'),
};
