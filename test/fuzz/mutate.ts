// Seeded mutation of manifests for the fuzz suites: the same seed gives the same cases on every run.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { findManifestFiles } from '../../server/src/inventory/manifest-files';
import * as manifests from '../rules/manifests';

/** Real manifests written by others, next to the repository (or where KUBE_RESILIENCE_CORPUS says); optional. */
export const CORPUS = process.env.KUBE_RESILIENCE_CORPUS ?? join('..', 'shared', 'corpus');

/** mulberry32: small, fast and good enough to pick mutations. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)];

const BUILT_IN: { name: string; text: string }[] = [
  { name: 'deployment.yaml', text: manifests.deployment({ name: 'web', spec: '  replicas: 3 # three\n', container: '          ports:\n            - containerPort: 8080\n          livenessProbe:\n            httpGet: { path: /healthz, port: 8080 }\n' }) },
  { name: 'single.yaml', text: manifests.deployment({ name: 'one', spec: '  replicas: 1\n' }) },
  { name: 'with-pdb.yaml', text: manifests.documents(manifests.deployment({ name: 'api', spec: '  replicas: 2\n' }), manifests.pdb('  minAvailable: 2\n', { name: 'api-pdb', selector: '    matchLabels:\n      app: api\n' })) },
  { name: 'hpa.yaml', text: manifests.documents(manifests.deployment({ name: 'scaled', spec: '  replicas: 4\n' }), manifests.hpa({ target: 'scaled', min: 1, max: 1 })) },
  { name: 'statefulset.yaml', text: manifests.deployment({ name: 'db', kind: 'StatefulSet', spec: '  replicas: 3\n  serviceName: db\n', podSpec: '      terminationGracePeriodSeconds: 10\n' }) },
  { name: 'service.yaml', text: manifests.documents(manifests.service({ name: 'sessions', app: 'calls', extra: '  sessionAffinity: ClientIP\n' }), manifests.deployment({ name: 'calls', spec: '  strategy:\n    type: Recreate\n  replicas: 2\n' })) },
  { name: 'kind.yaml', text: 'kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nnodes:\n# the only control plane\n- role: control-plane\n  extraPortMappings:\n  - containerPort: 80\n    hostPort: 80\n- role: worker\n' },
  { name: 'cronjob.json', text: JSON.stringify({ apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'nightly' }, spec: { schedule: '0 3 * * *', jobTemplate: { spec: { template: { spec: { containers: [{ name: 'n', image: 'busybox', resources: { limits: { memory: '64Mi' } } }], restartPolicy: 'Never' } } } } } }, null, 2) },
];

/** Up to `limit` seed files: every n-th corpus file when the corpus is there, else the built-in set. */
type SeedFile = { name: string; text: string; from: 'corpus' | 'built-in' };

export function seedFiles(limit: number): SeedFile[] {
  if (!existsSync(CORPUS) || !statSync(CORPUS).isDirectory()) return BUILT_IN.map((s) => ({ ...s, from: 'built-in' }));
  // Multi-megabyte bundles (a full Argo CD install) measure speed, not robustness: bench has them.
  const paths = findManifestFiles(CORPUS).filter((path) => statSync(path).size <= 64 * 1024);
  const step = Math.max(1, Math.floor(paths.length / limit));
  return paths
    .filter((_, index) => index % step === 0)
    .slice(0, limit)
    .map((path): SeedFile => ({ name: relative(CORPUS, path), text: readFileSync(path, 'utf8'), from: 'corpus' }))
    .concat(BUILT_IN.map((s): SeedFile => ({ ...s, from: 'built-in' })));
}

type Mutator = (text: string, random: () => number) => string;

const lineWise = (change: (lines: string[], at: number, random: () => number) => void): Mutator => (text, random) => {
  const lines = text.split('\n');
  change(lines, Math.floor(random() * lines.length), random);
  return lines.join('\n');
};

const SCALARS = ['', 'null', '~', '[]', '{}', '-1', '0', '1e309', '"0%"', "'100%'", 'true', '0x10', '.nan', '&a x', '*a', '!!binary AAAA', '"\\u0000"', '|', '>-', '2Gi', '-', '? x'];

/** Each mutation is a way real files get broken: by hand, by a bad merge, by a tool, or on purpose. */
export const MUTATORS: [string, Mutator][] = [
  ['delete a line', lineWise((lines, at) => lines.splice(at, 1))],
  ['duplicate a line', lineWise((lines, at) => lines.splice(at, 0, lines[at]))],
  ['swap two lines', lineWise((lines, at, random) => {
    const other = Math.floor(random() * lines.length);
    [lines[at], lines[other]] = [lines[other], lines[at]];
  })],
  ['re-indent a line', lineWise((lines, at, random) => {
    lines[at] = ' '.repeat(Math.floor(random() * 9)) + lines[at].trimStart();
  })],
  ['empty a value', lineWise((lines, at) => {
    lines[at] = lines[at].replace(/:\s.*$/, ':');
  })],
  ['replace a value', lineWise((lines, at, random) => {
    lines[at] = lines[at].replace(/:\s.*$/, `: ${pick(random, SCALARS)}`);
  })],
  ['truncate the file', (text, random) => text.slice(0, Math.floor(random() * text.length))],
  ['insert a NUL or control byte', (text, random) => {
    const at = Math.floor(random() * text.length);
    return text.slice(0, at) + pick(random, ['\0', '\u0007', '\uFEFF', '\uFFFD', '\t', '\r']) + text.slice(at);
  }],
  ['insert a document separator', lineWise((lines, at) => lines.splice(at, 0, '---'))],
  ['nest deeply', lineWise((lines, at) => lines.splice(at, 0, `deep: ${'['.repeat(300)}${']'.repeat(300)}`))],
  ['an alias fan-out', (text) => `${text}\n---\na: &a [x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c]\n`],
  ['a long line', lineWise((lines, at) => lines.splice(at, 0, `# ${'x'.repeat(200_000)}`))],
  ['swap a kind', (text, random) => text.replace(/kind: \w+/, `kind: ${pick(random, ['Deployment', 'StatefulSet', 'PodDisruptionBudget', 'HorizontalPodAutoscaler', 'Cluster', 'List', 'Pod', 'DaemonSet', 'CronJob'])}`)],
  ['a list where a mapping was', lineWise((lines, at) => {
    lines[at] = lines[at].replace(/^(\s*)([\w.-]+):\s*$/, '$1$2: [1, 2]');
  })],
];

/** `count` mutations in a row, named, so that a failing case says what was done to its file. */
export function mutate(text: string, random: () => number, count: number): { text: string; mutations: string[] } {
  const mutations: string[] = [];
  let out = text;
  for (let i = 0; i < count; i++) {
    const [name, mutator] = pick(random, MUTATORS);
    out = mutator(out, random);
    mutations.push(name);
  }
  return { text: out, mutations };
}
