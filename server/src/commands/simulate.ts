import { jsonText } from '../printable';
import { parseArgs } from 'node:util';
import { collectFiles, readFoundManifest, type Io } from './check';
import { asGiven, renderUnits, RENDER_OPTIONS } from './check-units';
import { CLUSTER_OPTIONS, loadClusterFromArgs } from './cluster-args';
import { UsageError } from './usage-error';
import { Inventory } from '../inventory/inventory';
import { parseManifest } from '../manifest/parse';
import { analyzeFile } from '../rules/engine';
import { invalidYaml } from '../rules/invalid-yaml';
import { templatedFile } from '../rules/templated-file';
import { renderedUri } from '../render/analyze-unit';
import { buildSimInputs } from '../simulate/build-inputs';
import { FAILURE_USAGE, parseDrainList, parseDuration, parseEvent, parseFailure, ScenarioError, validateScenario, VOLUNTARY_EVENTS } from '../simulate/parse-scenario';
import { renderSimulationMarkdown } from '../simulate/report-markdown';
import { renderSimulationText } from '../simulate/report-text';
import { simulate } from '../simulate/simulate';
import type { Scenario } from '../simulate/types';
import { withControlPlanes } from '../simulate/what-if';

export const SIMULATE_USAGE = `kube-resilience simulate [--snapshot FILE | --context NAME | --kubeconfig FILE | --demo] [--timeout SECONDS] [PATH ...]
                      [--fail ${FAILURE_USAGE}] [--for DURATION]
                      [--control-planes N] [--event KIND:ARGS@TIME ...] [--drain NODE[,NODE...]]
                      [--format text|json|markdown] [--render auto|off] [--values FILE ...] [--set KEY=VALUE ...]
                      [--release NAME] [--namespace NS]
  --event drain:NODE@T        kubectl drain NODE at T (PDBs, 5 s retries, full grace periods)
  --event scale-down:NODE@T   the cluster autoscaler removes NODE at T (its conditions, 600 s grace cap)
  --event upgrade-nodes@T     a rolling node upgrade from T: each worker drained in turn and replaced
  --event node-reboot:NODE@T, node-lost:NODE@T, pod-crash:NAMESPACE/WORKLOAD:restartable|permanent@T,
          traffic-surge:NAMESPACE/WORKLOAD:FACTOR@T, coredns-restart@T, kube-proxy-restart:NODE@T
                              what else happens during the failure (T: 90s, 10m, 1h30m)
  --drain NODE[,NODE...]      kubectl drain of those nodes at 0
  charts and Kustomize roots among the PATHs are rendered (as check does) and their workloads simulated
  --fail is optional with only drains, scale-downs and upgrades (nothing fails in the control plane)`;

/** Scenario syntax errors are the caller's mistakes: exit 2 with the message. */
function asUsage<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof ScenarioError) throw new UsageError(error.message);
    throw error;
  }
}

export async function runSimulate(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      fail: { type: 'string' },
      for: { type: 'string', default: '1h' },
      'control-planes': { type: 'string' },
      event: { type: 'string', multiple: true, default: [] },
      drain: { type: 'string', multiple: true, default: [] },
      format: { type: 'string', default: 'text' },
      ...CLUSTER_OPTIONS,
      ...RENDER_OPTIONS,
    },
  });
  const format = values.format!;
  if (!['text', 'json', 'markdown'].includes(format)) throw new UsageError(`--format takes text, json or markdown, not "${format}"`);
  const events = asUsage(() => [...(values.event as string[]).map(parseEvent), ...(values.drain as string[]).flatMap(parseDrainList)].sort((a, b) => a.at - b.at));
  const voluntaryOnly = events.length > 0 && events.every((e) => VOLUNTARY_EVENTS.includes(e.kind));
  if (!values.fail && !voluntaryOnly) throw new UsageError(`--fail is required (${FAILURE_USAGE}) unless the scenario only drains, scales down or upgrades nodes`);
  const controlPlanesText = values['control-planes'];
  if (controlPlanesText !== undefined && !/^\d+$/.test(controlPlanesText)) throw new UsageError(`--control-planes takes a whole number, not "${controlPlanesText}"`);
  // Checked before the what-if cluster is drawn: 99999999999 control planes ran the process out of memory first.
  if (controlPlanesText !== undefined && (Number(controlPlanesText) < 1 || Number(controlPlanesText) > 9)) throw new UsageError(`--control-planes takes a whole number from 1 to 9, not "${controlPlanesText}"`);
  const scenario: Scenario = asUsage(() => ({
    fail: parseFailure(values.fail ?? 'none'),
    duration: parseDuration(values.for!),
    ...(controlPlanesText !== undefined ? { controlPlanes: Number(controlPlanesText) } : {}),
    events,
  }));

  const cluster = await loadClusterFromArgs(values, io);
  if (!cluster && !positionals.length) throw new UsageError('nothing to simulate: name manifests (PATH ...) or a cluster (--demo, --snapshot FILE, --context NAME)');
  const inventory = new Inventory();
  if (cluster) inventory.setCluster(cluster.resources);
  let renderFailed = false;
  let skipped = false;
  if (positionals.length) {
    // What a chart or overlay deploys is what runs: its workloads come from the render, not its templates.
    // A file a folder's walk passes over is said, as check says it.
    const skip = (path: string, reason: string) => {
      io.stderr(`kube-resilience simulate: skipped ${path}: ${reason}`);
      // What it holds is not simulated: not a clean run, as check says of it.
      skipped = true;
    };
    const files = collectFiles(positionals, skip);
    const { plainPaths, ofUnrenderedUnits, rendered } = await renderUnits(files, values, io, 'simulate');
    for (const unit of rendered) inventory.setFile(parseManifest(renderedUri(unit), unit.text));
    // A unit that does not render deploys nothing the simulation can see: said, and the run is not a clean one.
    for (const problem of rendered.flatMap((unit) => unit.problems)) {
      io.stderr(`kube-resilience simulate: ${asGiven(problem.location.path)}:${problem.location.line + 1}: ${problem.message}`);
      if (problem.severity === 'error') renderFailed = true;
    }
    for (const path of plainPaths) {
      const source = readFoundManifest(path, positionals, io, 'simulate', skip);
      if (!source) continue;
      const file = parseManifest(path, source.text);
      inventory.setFile(file);
      // A template, or a document that does not parse, holds workloads the simulation cannot see: said as check says it
      // (those of a chart or root that could not be rendered, helm missing, are said of it as a whole).
      if (ofUnrenderedUnits.has(path)) continue;
      for (const finding of analyzeFile(file, inventory, { rules: [templatedFile, invalidYaml] })) {
        io.stderr(`kube-resilience simulate: ${path}:${(finding.range?.start.line ?? 0) + 1}: ${finding.message.replace(/\.?$/, '.')} What it holds is not simulated.`);
        skipped = true;
      }
    }
  }

  const { topology, workloads } = buildSimInputs(inventory, cluster);
  asUsage(() => validateScenario(scenario, withControlPlanes(topology, scenario.controlPlanes), workloads, topology));
  const result = simulate(topology, workloads, scenario);

  const options = { cluster: cluster?.name };
  if (format === 'json') io.stdout(jsonText(result));
  else if (format === 'markdown') io.stdout(renderSimulationMarkdown(result, options));
  else io.stdout(renderSimulationText(result, options));
  return renderFailed || skipped ? 2 : 0;
}
