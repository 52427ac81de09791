import * as os from 'node:os';
import * as vscode from 'vscode';
import { readSettings, writeClusterChoice, type ClusterChoice } from '../settings';
import { contextChoices } from './context-choices';
import { kubeconfigPaths, listContexts, readKubeconfigFile } from './contexts';

interface ChoiceItem extends vscode.QuickPickItem {
  choice?: ClusterChoice;
}

/** "Kube Resilience: Select Context": the contexts of the kubeconfig files in use, plus the demo cluster. */
export async function selectContext(): Promise<void> {
  const settings = readSettings();
  const files = kubeconfigPaths(settings.kubeconfig, process.env, os.homedir()).map(readKubeconfigFile);
  const listing = listContexts(files);
  const { contexts, demo, placeHolder } = contextChoices(listing, files, settings);
  const items: ChoiceItem[] = [...contexts, { label: '', kind: vscode.QuickPickItemKind.Separator }, demo];
  const picked = await vscode.window.showQuickPick(items, { title: 'Kube Resilience: Select Context', placeHolder, matchOnDetail: true });
  if (picked?.choice) await writeClusterChoice(picked.choice);
  for (const problem of listing.problems) void vscode.window.showWarningMessage(`Kube Resilience: ${problem}`);
}
