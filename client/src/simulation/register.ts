import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { SIMULATE_WORKLOAD_COMMAND, validateSimulateWorkloadArgs } from '../../../server/src/simulate/messages';
import { SIMULATION_VIEW_TYPE, SimulationPanel } from './panel';

export const SIMULATE_COMMAND = 'kubeResilience.simulate';

/** "What if the control plane dies?": the command, the code lens's command, and the panel's restore after a reload. */
export function registerSimulation(context: vscode.ExtensionContext, client: LanguageClient, output: vscode.LogOutputChannel, clusterChanged: vscode.Event<void>): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(SIMULATE_COMMAND, () => SimulationPanel.show(context, client, output)),
    vscode.commands.registerCommand(SIMULATE_WORKLOAD_COMMAND, (args: unknown) => {
      const checked = validateSimulateWorkloadArgs(args);
      if (!checked.ok) output.warn(`${SIMULATE_WORKLOAD_COMMAND}: ignored ${checked.error}`);
      SimulationPanel.show(context, client, output, checked.ok ? checked.value : undefined);
    }),
    vscode.window.registerWebviewPanelSerializer(SIMULATION_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel) => SimulationPanel.revive(panel, context, client, output),
    }),
    // An open page followed the cluster it was opened on until its scenario changed.
    clusterChanged(() => SimulationPanel.clusterChanged()),
  );
}
