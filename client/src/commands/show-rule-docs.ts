import * as vscode from 'vscode';
import { listRuleDocs, ruleDocPath } from './rule-docs';

export const SHOW_RULE_DOCS = 'kubeResilience.showRuleDocs';

/** "Kube Resilience: Show Rule Documentation": the rule's page (given, or picked) in the Markdown preview. */
export function showRuleDocs(context: vscode.ExtensionContext): (ruleId?: unknown) => Promise<void> {
  const docsRoot = vscode.Uri.joinPath(context.extensionUri, 'docs', 'rules').fsPath;
  return async (ruleId?: unknown) => {
    // A diagnostic's code arrives as { value, target } from some callers.
    const id = typeof ruleId === 'object' && ruleId !== null && 'value' in ruleId ? (ruleId as { value: unknown }).value : ruleId;
    let path = ruleDocPath(docsRoot, id);
    if (!path) {
      const entries = listRuleDocs(docsRoot);
      if (!entries.length) {
        void vscode.window.showErrorMessage('Kube Resilience: no rule documentation is shipped with this installation.');
        return;
      }
      const picked = await vscode.window.showQuickPick(
        entries.map((e) => ({ label: e.id, detail: e.finds, path: e.path })),
        { title: 'Kube Resilience: Show Rule Documentation', placeHolder: typeof id === 'string' && id ? `No rule "${id}"; pick one` : 'Which rule?', matchOnDetail: true },
      );
      path = picked?.path;
    }
    if (path) await vscode.commands.executeCommand('markdown.showPreview', vscode.Uri.file(path));
  };
}
