// `simulate` on a chart and a Kustomize overlay: what they deploy is simulated, with the real helm and kubectl.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import type { SimulationResult } from '../../server/src/simulate/types';
import { renderTools } from '../render/render-tools';

const CLI = resolve('dist/cli.js');
const PODINFO = resolve([join('..', 'shared'), join('..', '..', 'shared')].map((dir) => join(dir, 'corpus-rendered', 'podinfo')).find((dir) => existsSync(dir)) ?? 'no-podinfo');
const tools = renderTools();

function simulate(args: string[], withTools = true): { result: SimulationResult; stderr: string } {
  const run = spawnSync(process.execPath, [CLI, 'simulate', '--demo', '--drain', 'worker-b1', '--format', 'json', ...args], {
    encoding: 'utf8',
    env: { ...process.env, PATH: withTools ? [tools.folder ?? '', process.env.PATH].join(delimiter) : '/nonexistent' },
  });
  assert.equal(run.status, 0, run.stderr);
  return { result: JSON.parse(run.stdout), stderr: run.stderr };
}
const names = (result: SimulationResult) => result.workloads.map((w) => `${w.namespace}/${w.name}`);

describe('simulate on charts and Kustomize overlays', { skip: (!existsSync(CLI) && 'dist/cli.js is not built') || tools.skip || (!existsSync(PODINFO) && 'podinfo is not present') }, () => {
  it('an overlay: its workloads in the overlay namespace, not the bases it patches', () => {
    const { result } = simulate([join(PODINFO, 'deploy', 'overlays', 'production')]);
    assert.ok(names(result).includes('production/frontend'), names(result).join(', '));
    assert.deepEqual(names(result).filter((n) => n.endsWith('/frontend')), ['production/frontend'], 'no base simulated as if deployed on its own');
  });

  it('a chart: the release it renders (--release names it), its test hook left out', () => {
    const { result } = simulate(['--release', 'shop', join(PODINFO, 'charts', 'podinfo')]);
    assert.ok(names(result).some((n) => n.endsWith('/shop-podinfo')), names(result).join(', '));
    assert.ok(!names(result).some((n) => /test/.test(n)), names(result).join(', '));
  });

  it('a chart that does not render: its error on stderr where helm says it is, and exit 2 (its workloads are missing from the answer)', () => {
    const chart = join(mkdtempSync(join(tmpdir(), 'kr-simulate-broken-')), 'broken');
    mkdirSync(join(chart, 'templates'), { recursive: true });
    writeFileSync(join(chart, 'Chart.yaml'), 'apiVersion: v2\nname: broken\nversion: 0.1.0\n');
    writeFileSync(join(chart, 'templates', 'deployment.yaml'), '{{ fail "set image.tag" }}\n');
    const run = spawnSync(process.execPath, [CLI, 'simulate', '--demo', '--fail', 'apiserver', chart], { encoding: 'utf8', env: { ...process.env, PATH: [tools.folder ?? '', process.env.PATH].join(delimiter) } });
    assert.equal(run.status, 2, run.stderr);
    assert.match(run.stderr, /^kube-resilience simulate: .*broken\/templates\/deployment\.yaml:1: .*set image\.tag/m);
    assert.match(run.stdout, /What if every API server fails/, 'the rest is still simulated');
  });

  it('without helm: one line says so, and the chart is read file by file', () => {
    const { stderr } = simulate([join(PODINFO, 'charts', 'podinfo')], false);
    assert.match(stderr, /kube-resilience simulate: helm was not found/);
  });
});
