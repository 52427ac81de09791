import * as vscode from 'vscode';

export const OPEN_EXAMPLE = 'kubeResilience.openExample';

/** Opens the billing example as a new unsaved YAML document: a first finding without touching any file. */
export function openExample(context: vscode.ExtensionContext): () => Promise<void> {
  return async () => {
    const bytes = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(context.extensionUri, 'examples', 'billing.yaml'));
    const document = await vscode.workspace.openTextDocument({ language: 'yaml', content: Buffer.from(bytes).toString('utf8') });
    await vscode.window.showTextDocument(document);
  };
}
