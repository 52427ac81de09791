import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { createLanguageClient } from './language-client';
import { registerClusterFace } from './cluster/register';
import { OPEN_EXAMPLE, openExample } from './commands/open-example';
import { SHOW_RULE_DOCS, showRuleDocs } from './commands/show-rule-docs';
import { serverCommand } from './commands/server-command';
import { pushSettings } from './settings';
import { ServerCommands } from '../../server/src/protocol';
import { registerSimulation } from './simulation/register';

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel('Kube Resilience', { log: true });
  context.subscriptions.push(output);
  client = createLanguageClient(context, output);
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('kubeResilience') && client) pushSettings(client);
    }),
  );
  const clusterChanged = registerClusterFace(context, client, output);
  registerSimulation(context, client, output, clusterChanged);
  context.subscriptions.push(vscode.commands.registerCommand(SHOW_RULE_DOCS, showRuleDocs(context)));
  context.subscriptions.push(vscode.commands.registerCommand(OPEN_EXAMPLE, openExample(context)));
  context.subscriptions.push(serverCommand(client, ServerCommands.readWorkspaceAgain, 'read the workspace again'));
  await client.start();
  output.info('Kube Resilience language server started');
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
