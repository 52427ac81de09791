import { ResponseError, ErrorCodes, LSPErrorCodes, type CancellationToken, type CodeLens } from 'vscode-languageserver/node';
import { demoCluster } from '../cluster/demo';
import type { ClusterInfo } from '../cluster/types';
import { Inventory } from '../inventory/inventory';
import { kindRange } from '../manifest/path';
import { isWorkload } from '../manifest/workload';
import { Methods } from '../protocol';
import { buildSimInputs, type SimInputs } from '../simulate/build-inputs';
import { simulationInputOf } from '../simulate/input-view';
import {
  SIMULATE_WORKLOAD_COMMAND,
  validateFindingRef,
  validateScenario as validateScenarioShape,
  validateRange,
  validateSimulateWorkloadArgs,
  type FindingLocation,
  type SimulateWorkloadArgs,
  type SimulationInput,
} from '../simulate/messages';
import { ScenarioError, validateScenario } from '../simulate/parse-scenario';
import type { SimulationResult } from '../simulate/types';
import { withControlPlanes } from '../simulate/what-if';
import type { Feature } from './features';
import type { ServerState } from './state';
import { editorUnits } from './units';
import { SimulationWorkers } from './simulation-worker';

let demo: ClusterInfo | undefined;
const workers = new SimulationWorkers();

/** The cluster in use, or the embedded demo when none is read, with the workspace's manifests on top. */
function inputsFor(state: ServerState): { inputs: SimInputs; cluster: ClusterInfo } {
  const cluster = state.cluster ?? (demo ??= demoCluster());
  const inventory = new Inventory();
  inventory.setCluster(cluster.resources);
  const units = editorUnits();
  // A chart's or overlay's files give way to what it renders: that is what runs.
  for (const file of state.inventory.allFiles()) if (!units?.replacesPlainAnalysis(file.uri)) inventory.setFile(file);
  for (const file of units?.renderedFiles() ?? []) inventory.setFile(file);
  return { inputs: buildSimInputs(inventory, cluster), cluster };
}

async function runSimulation(state: ServerState, params: unknown, token: CancellationToken): Promise<SimulationResult> {
  const checked = validateScenarioShape((params as { scenario?: unknown } | null)?.scenario);
  if (!checked.ok) throw new ResponseError(ErrorCodes.InvalidParams, checked.error);
  const scenario = checked.value;
  const { inputs } = inputsFor(state);
  try {
    validateScenario(scenario, withControlPlanes(inputs.topology, scenario.controlPlanes), inputs.workloads, inputs.topology);
  } catch (error) {
    if (error instanceof ScenarioError) throw new ResponseError(ErrorCodes.InvalidParams, error.message);
    throw error;
  }
  const outcome = await workers.run({ topology: inputs.topology, workloads: inputs.workloads, scenario }, token);
  if ('cancelled' in outcome) throw new ResponseError(LSPErrorCodes.RequestCancelled, 'the simulation was cancelled');
  if ('refused' in outcome) throw new ResponseError(ErrorCodes.InvalidParams, outcome.refused);
  if ('error' in outcome) throw new ResponseError(ErrorCodes.InternalError, outcome.error);
  return outcome.result;
}

/**
 * A lens above each workload, its command left to codeLens/resolve: an editor asks for every lens of the
 * file after each edit but resolves only those on screen (on the 106k-line benchmark file, 1,963 lenses
 * were 503 kB per request with their commands).
 */
async function codeLenses(state: ServerState, uri: string): Promise<CodeLens[]> {
  if (!state.settings.enable) return [];
  // Its parse is in the inventory once its findings are.
  await state.findings(uri);
  const file = state.inventory.getFile(uri);
  if (!file || !state.runsSimulations) return [];
  return file.resources
    .filter((r) => isWorkload(r) && r.name && r.node)
    .map((resource) => {
      const { start } = kindRange(resource);
      const data: SimulateWorkloadArgs = { namespace: resource.namespace, name: resource.name!, kind: resource.kind };
      return { range: { start, end: start }, data };
    });
}

/** The lens with its command: simulate the workload its data names. */
function resolveCodeLens(lens: unknown): CodeLens {
  const { range, data } = (lens ?? {}) as { range?: unknown; data?: unknown };
  const checkedRange = validateRange(range);
  if (!checkedRange.ok) throw notOurLens(checkedRange.error);
  const args = validateSimulateWorkloadArgs(data);
  if (!args.ok) throw notOurLens(args.error);
  return { range: checkedRange.value, command: { title: 'What if the control plane dies?', command: SIMULATE_WORKLOAD_COMMAND, arguments: [args.value] } };
}

function notOurLens(why: string): ResponseError<void> {
  return new ResponseError(ErrorCodes.InvalidParams, `not a lens of this server: ${why}`);
}

/** Where the workspace states the resource a finding is about, and the finding's range there when the rule fires. */
async function locateFinding(state: ServerState, params: unknown): Promise<FindingLocation | null> {
  const checked = validateFindingRef(params);
  if (!checked.ok) throw new ResponseError(ErrorCodes.InvalidParams, checked.error);
  // Every open document's parse and findings are in (none is being validated in slices).
  await Promise.all(state.documents.all().map((doc) => state.findings(doc.uri)));
  const ref = checked.value;
  for (const file of state.inventory.allFiles()) {
    const resource = file.resources.find((r) => r.kind === ref.kind && r.name === ref.name && r.namespace === ref.namespace && r.node);
    if (!resource) continue;
    const finding = (await state.findings(file.uri)).find((f) => f.ruleId === ref.ruleId && f.resource?.kind === ref.kind && f.resource?.name === ref.name && f.resource?.namespace === ref.namespace && f.range);
    return { uri: file.uri, range: finding?.range ?? kindRange(resource) };
  }
  return null;
}

/** The "What if the control plane dies?" simulation: its requests and the code lens above each workload. */
export const simulationFeature: Feature = {
  capabilities: { codeLensProvider: { resolveProvider: true } },
  register(state) {
    state.connection.onRequest(Methods.simulate, (params: unknown, token): Promise<SimulationResult> => runSimulation(state, params, token));
    state.connection.onRequest(Methods.simulationInput, (): SimulationInput => {
      const { inputs, cluster } = inputsFor(state);
      return simulationInputOf(inputs, cluster);
    });
    state.connection.onRequest(Methods.locateFinding, (params: unknown) => locateFinding(state, params));
    state.connection.onCodeLens((params) => codeLenses(state, params.textDocument?.uri));
    state.connection.onCodeLensResolve((lens: unknown) => resolveCodeLens(lens));
  },
};
