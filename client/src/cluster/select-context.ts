import { readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as vscode from 'vscode';
import { readSettings, writeClusterChoice, type ClusterChoice } from '../settings';
import { kubeconfigPaths, listContexts, type KubeconfigFile } from './contexts';

interface ChoiceItem extends vscode.QuickPickItem {
  choice?: ClusterChoice;
}

export const DEMO_LABEL = 'Embedded demo cluster';

function readKubeconfig(path: string): KubeconfigFile {
  try {
    return { path, text: readFileSync(path, 'utf8') };
  } catch {
    return { path, text: undefined };
  }
}

/** "Kube Resilience: Select Context": the contexts of the kubeconfig files in use, plus the demo cluster. */
export async function selectContext(): Promise<void> {
  const settings = readSettings();
  const files = kubeconfigPaths(settings.kubeconfig, process.env, os.homedir()).map(readKubeconfig);
  const listing = listContexts(files);
  const inUse = settings.cluster === 'demo' ? undefined : (settings.context ?? listing.current);
  const items: ChoiceItem[] = listing.contexts.map((c) => ({
    label: c.name,
    description: [c.name === inUse ? 'in use' : '', c.name === listing.current ? 'current-context' : ''].filter(Boolean).join(' · '),
    detail: [c.cluster && `cluster ${c.cluster}`, c.user && `user ${c.user}`, c.namespace && `namespace ${c.namespace}`, c.file].filter(Boolean).join(' · '),
    choice: { context: c.name },
  }));
  if (!items.length) {
    const where = files.map((f) => f.path).join(', ');
    items.push({ label: 'No contexts found', description: where, detail: listing.problems.join('; ') || undefined });
  }
  items.push({ label: '', kind: vscode.QuickPickItemKind.Separator });
  items.push({ label: DEMO_LABEL, description: settings.cluster === 'demo' ? 'in use' : 'no kubeconfig needed', choice: { demo: true } });
  const picked = await vscode.window.showQuickPick(items, { title: 'Kube Resilience: Select Context', placeHolder: 'Which cluster should the advisor read?', matchOnDetail: true });
  if (picked?.choice) await writeClusterChoice(picked.choice);
  for (const problem of listing.problems) void vscode.window.showWarningMessage(`Kube Resilience: ${problem}`);
}
