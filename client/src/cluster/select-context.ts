import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { ContextListing } from '../../../server/src/cluster/contexts';
import { Methods, type ContextsParams } from '../../../server/src/protocol';
import { readSettings, writeClusterChoice, type ClusterChoice } from '../settings';
import { contextChoices } from './context-choices';

interface ChoiceItem extends vscode.QuickPickItem {
  choice?: ClusterChoice;
}

/** "Kube Resilience: Select Context": the contexts of the kubeconfig files in use, plus the demo cluster. */
export async function selectContext(client: LanguageClient): Promise<void> {
  const settings = readSettings();
  // The server reads the kubeconfig files (it parses YAML already): the extension stays small.
  let listing: ContextListing;
  try {
    listing = await client.sendRequest<ContextListing>(Methods.listContexts, { kubeconfig: settings.kubeconfig } satisfies ContextsParams);
  } catch (error) {
    void vscode.window.showErrorMessage(`Kube Resilience: cannot list the kubeconfig's contexts: ${(error as Error).message}`);
    return;
  }
  const { contexts, demo, placeHolder } = contextChoices(listing, settings);
  const items: ChoiceItem[] = [...contexts, { label: '', kind: vscode.QuickPickItemKind.Separator }, demo];
  const picked = await vscode.window.showQuickPick(items, { title: 'Kube Resilience: Select Context', placeHolder, matchOnDetail: true });
  if (picked?.choice) await writeClusterChoice(picked.choice);
  for (const problem of listing.problems) void vscode.window.showWarningMessage(`Kube Resilience: ${problem}`);
}
