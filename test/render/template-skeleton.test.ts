import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Path } from '../../server/src/manifest/path';
import { blocksOpenAt, matchPath, parseSkeleton, parseSkeletons, soleAction, valuesKeyOf } from '../../server/src/render/template-skeleton';

/** The 1-based line a path leads to, the opaque block's line when the template prints the rest, and the values key. */
function find(template: string, path: Path, names: Record<number, string> = {}, rendered: Record<number, unknown> = {}, values: Record<string, unknown> = {}): { line?: number; opaque?: number; values?: string } {
  const skeleton = parseSkeleton(template);
  const printsValue = (node: { value: string; dot: string[] | null }, value: unknown) => {
    const action = soleAction(node.value);
    const key = action ? valuesKeyOf(action, node.dot) : undefined;
    return !!key && values[key.join('.')] === value;
  };
  const match = matchPath(skeleton, path, (depth) => (names[depth] !== undefined ? { name: names[depth] } : rendered[depth]), printsValue);
  const last = match.nodes[match.nodes.length - 1];
  const full = match.depth === path.length;
  const target = match.opaque ?? (full ? last : undefined);
  const action = target && (target.kind === 'opaque' ? target.value.replace(/^\{\{-?\s*/, '').replace(/\s*-?\}\}$/, '') : soleAction(target.value));
  const key = action ? valuesKeyOf(action, target!.dot) : undefined;
  return {
    ...(full ? { line: last.line + 1 } : {}),
    ...(match.opaque ? { opaque: match.opaque.line + 1 } : {}),
    ...(key ? { values: key.join('.') } : {}),
  };
}

const deployment = `{{- if .Values.enabled }}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "app.fullname" . }}
  labels:
    {{- include "app.labels" . | nindent 4 }}
spec:
  {{- if not .Values.autoscaling.enabled }}
  replicas: {{ .Values.replicaCount | int }}
  {{- end }}
  template:
    spec:
      containers:
        {{- if .Values.sidecar.enabled }}
        - name: sidecar
          image: proxy:1
        {{- end }}
        - name: app
          image: "{{ .Values.image.repository }}:{{ .Values.image.tag }}"
          args:
            - --config
            - |
              port: 8080
              replicas: 9
          env:
          - name: MODE
            value: {{ .Values.mode | default "prod" | quote }}
          - name: REGION
            value: {{ quote .Values.region }}
          {{- with .Values.probes.readiness }}
          readinessProbe:
            httpGet:
              path: /ready
              port: {{ .port }}
            periodSeconds: {{ .periodSeconds | default 10 }}
          {{- end }}
          resources:
{{ toYaml .Values.resources | indent 12 }}
      {{- with .Values.affinity }}
      affinity:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- range .Values.extraVolumes }}
      volumes:
        - name: {{ .name }}
      {{- end }}
{{- end }}
`;

describe('the indentation matcher on templates', () => {
  it('finds a key whose value is a values key, through `| int`, inside an if block', () => {
    assert.deepEqual(find(deployment, ['spec', 'replicas']), { line: 10, values: 'replicaCount' });
  });

  it('tells sequence items apart by their literal name, whatever conditional items precede them', () => {
    assert.deepEqual(find(deployment, ['spec', 'template', 'spec', 'containers', 0, 'image'], { 4: 'app' }), { line: 20 });
    assert.deepEqual(find(deployment, ['spec', 'template', 'spec', 'containers', 1, 'image'], { 4: 'app' }), { line: 20 });
    assert.deepEqual(find(deployment, ['spec', 'template', 'spec', 'containers', 0, 'image'], { 4: 'sidecar' }), { line: 17 });
  });

  it('reads indentless sequences (`env:` with its items at the same column)', () => {
    assert.deepEqual(find(deployment, ['spec', 'template', 'spec', 'containers', 0, 'env', 1, 'value'], { 4: 'app', 6: 'REGION' }), { line: 30, values: 'region' });
    assert.deepEqual(find(deployment, ['spec', 'template', 'spec', 'containers', 0, 'env', 0, 'value'], { 4: 'app', 6: 'MODE' }), { line: 28, values: 'mode' });
  });

  it('does not read the lines of a block scalar as keys', () => {
    assert.deepEqual(find(deployment, ['spec', 'template', 'spec', 'containers', 0, 'replicas'], { 4: 'app' }), {});
    assert.deepEqual(find(deployment, ['spec', 'template', 'spec', 'containers', 0, 'env'], { 4: 'app' }), { line: 26 });
  });

  it('resolves `.field` inside `with .Values.…` to the values key', () => {
    const path = ['spec', 'template', 'spec', 'containers', 0, 'readinessProbe'];
    assert.deepEqual(find(deployment, [...path, 'periodSeconds'], { 4: 'app' }), { line: 36, values: 'probes.readiness.periodSeconds' });
    assert.deepEqual(find(deployment, [...path, 'httpGet', 'port'], { 4: 'app' }), { line: 35, values: 'probes.readiness.port' });
    assert.deepEqual(find(deployment, [...path, 'httpGet', 'path'], { 4: 'app' }), { line: 34 });
  });

  it('a field printed by `toYaml … | indent N` at column 0 belongs to the key above it', () => {
    const path = ['spec', 'template', 'spec', 'containers', 0, 'resources'];
    assert.deepEqual(find(deployment, path, { 4: 'app' }), { line: 38, opaque: 39, values: 'resources' });
    assert.deepEqual(find(deployment, [...path, 'limits', 'memory'], { 4: 'app' }), { opaque: 39, values: 'resources' });
  });

  it('a list printed at the column of an indentless sequence (`env:` with its items at its own column) belongs to that sequence, not to the container', () => {
    const indentless = [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'spec:',
      '  template:',
      '    spec:',
      '      containers:',
      '        - name: app',
      '          env:',
      '          - name: MODE',
      '            value: prod',
      '          {{- if .Values.extraEnvs }}',
      '{{ toYaml .Values.extraEnvs | indent 10 }}',
      '          {{- end }}',
      '          ports:',
      '            - containerPort: 80',
      '        - name: bare',
      '          env:',
      '{{ toYaml .Values.bareEnvs | indent 10 }}',
      '',
    ].join('\n');
    const container = ['spec', 'template', 'spec', 'containers', 0];
    assert.deepEqual(find(indentless, [...container, 'readinessProbe'], { 4: 'app' }), {}, 'a probe is no part of what extraEnvs prints');
    const containers = parseSkeleton(indentless).root.children[2].children[0].children[0].children[0].children;
    const env = containers[0].children.find((c) => c.key === 'env')!;
    assert.deepEqual(env.children.map((c) => [c.kind, c.line + 1]), [['item', 9], ['opaque', 12]]);
    assert.deepEqual(find(indentless, [...container, 'ports', 0, 'containerPort'], { 4: 'app' }), { line: 15 }, 'the keys after the block are still the container\'s');
    assert.deepEqual(find(indentless, ['spec', 'template', 'spec', 'containers', 1, 'env', 0, 'name'], { 4: 'bare' }), { opaque: 18, values: 'bareEnvs' }, 'an empty key at the column of the block is its parent');
    // At the column of a key with a value, or with keys under it, the block prints keys beside it.
    const besides = ['kind: Deployment', 'spec:', '  template:', '    spec:', '      containers:', '        - name: app', '          image: x', '{{ toYaml .Values.more | indent 10 }}', '          resources:', '            limits: {}', '{{ toYaml .Values.rest | indent 10 }}', ''].join('\n');
    const app = parseSkeleton(besides).root.children[1].children[0].children[0].children[0].children[0];
    assert.deepEqual(app.children.map((c) => [c.kind, c.line + 1]), [['key', 6], ['key', 7], ['opaque', 8], ['key', 9], ['opaque', 11]]);
  });

  it('`toYaml . | nindent 8` inside `with .Values.affinity` is the values key affinity', () => {
    assert.deepEqual(find(deployment, ['spec', 'template', 'spec', 'affinity'], {}), { line: 41, opaque: 42, values: 'affinity' });
  });

  it('labels printed by an include are an opaque block with no values key', () => {
    assert.deepEqual(find(deployment, ['metadata', 'labels', 'app.kubernetes.io/name']), { opaque: 7 });
  });

  it('a `range` makes `.` an element, not a values key', () => {
    assert.deepEqual(find(deployment, ['spec', 'template', 'spec', 'volumes', 0, 'name']), { line: 46 });
  });

  it('the top-level kind line is where a whole-resource finding sits', () => {
    assert.equal(parseSkeleton(deployment).kindLine, 2);
  });

  it('values keys through default, quote, int and toYaml; none through other functions or several keys', () => {
    assert.deepEqual(valuesKeyOf('.Values.port | default 9898', null), ['port']);
    assert.deepEqual(valuesKeyOf('default 9898 .Values.port', null), ['port']);
    assert.deepEqual(valuesKeyOf('$.Values.image.pullPolicy', null), ['image', 'pullPolicy']);
    assert.equal(valuesKeyOf('printf "%s-%s" .Values.a .Values.b', null), undefined);
    assert.equal(valuesKeyOf('include "app.fullname" .', null), undefined);
    assert.equal(valuesKeyOf('.Values.a | upper', null), undefined);
    assert.equal(valuesKeyOf('.Release.Name', null), undefined);
    assert.equal(soleAction('"{{ .Values.image.repository }}:{{ .Values.image.tag }}"'), undefined);
    assert.equal(soleAction('"{{ .Values.port }}"'), '.Values.port');
    assert.equal(soleAction('{{ .Values.replicaCount }} # the HPA owns it'), '.Values.replicaCount', "a comment after it is YAML's");
    assert.equal(soleAction('"{{ .Values.port }}"  # the Service\'s too'), '.Values.port');
    assert.equal(soleAction('{{ .Values.a }} # see {{ .Values.b }}'), undefined, 'a comment holding an action leaves two');
    assert.equal(soleAction('{{ .Values.x | default "#" }}'), '.Values.x | default "#"');
  });
});

describe('matchPath, a key written in several branches', () => {
  const branches = (ha: string, single: string) => `kind: Deployment\nspec:\n  {{- if .Values.ha }}\n  replicas: ${ha}\n  {{- else }}\n  replicas: ${single}\n  {{- end }}\n`;

  it('is the branch whose literal value rendered', () => {
    assert.deepEqual(find(branches('3', '1'), ['spec', 'replicas'], {}, { 1: 1 }), { line: 6 });
    assert.deepEqual(find(branches('3', '1 # one for now'), ['spec', 'replicas'], {}, { 1: 1 }), { line: 6 });
    assert.deepEqual(find(branches('3', '1'), ['spec', 'replicas'], {}, { 1: 3 }), { line: 4 });
  });

  it('else the only branch that prints it with an action, else the only one whose values key holds it, else the first', () => {
    assert.deepEqual(find(branches('3', '{{ .Values.replicaCount }}'), ['spec', 'replicas'], {}, { 1: 1 }), { line: 6, values: 'replicaCount' });
    assert.deepEqual(find(branches('{{ .Values.haReplicas }}', '{{ .Values.replicaCount }}'), ['spec', 'replicas'], {}, { 1: 1 }, { haReplicas: 3, replicaCount: 1 }), { line: 6, values: 'replicaCount' }, 'the one whose values key holds what rendered');
    assert.deepEqual(find(branches('{{ .Values.haReplicas }}', '{{ .Values.replicaCount }}'), ['spec', 'replicas'], {}, { 1: 1 }, { haReplicas: 1, replicaCount: 1 }), { line: 4, values: 'haReplicas' }, 'both hold it: the first');
  });
});

describe('parseSkeletons', () => {
  it('reads each document of a template apart, with its kind and its lines, and knows a document a `range` repeats and lines inside one', () => {
    const text = `apiVersion: v1
kind: Service
metadata:
  name: web
---
apiVersion: apps/v1
kind: Deployment
spec:
  template:
    spec:
      containers:
        {{- range .Values.sidecars }}
        - name: {{ .name }}
        {{- end }}
        - name: app
{{- range .Values.workers }}
---
kind: {{ .kind }}
metadata:
  name: {{ .name }}
{{- end }}
`;
    const documents = parseSkeletons(text);
    assert.deepEqual(documents.map((d) => [d.kind, d.kindLine, d.repeated]), [['Service', 1, false], ['Deployment', 6, false], [undefined, 17, true]]);
    const containers = matchPath(documents[1], ['spec', 'template', 'spec', 'containers']).nodes[3].children;
    assert.deepEqual(containers.map((c) => [c.line, !!c.inLoop]), [[12, true], [14, false]]);
    assert.equal(parseSkeleton(text).kind, 'Service', 'the first');
  });
});

describe('blocksOpenAt: the blocks a template line sits in', () => {
  const text = '{{- define "x" }}a{{- end }}\nspec:\n  {{- with .Values.web }}\n  {{- if .on }}\n  replicas: 1\n  {{- end }}\n  other: 2\n  {{- end }}\nlast: 3\n';
  const at = (line: string) => blocksOpenAt(text, text.indexOf(line));
  it('counts each block its end closes: a define closed before, a with and an if around, the if closed after', () => {
    assert.deepEqual(at('  replicas: 1'), ['with', 'if']);
    assert.deepEqual(at('  other: 2'), ['with']);
    assert.deepEqual(at('last: 3'), [], 'none at the root: the condition is read there as written');
  });
});
