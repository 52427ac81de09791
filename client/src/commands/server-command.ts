import * as vscode from 'vscode';
import { ExecuteCommandRequest, type LanguageClient } from 'vscode-languageclient/node';

/**
 * A command the server runs, registered by the extension (see ServerCommands): asked while the server is stopped or
 * starting again, it says so, where a command the language client registered was gone.
 */
export function serverCommand(client: LanguageClient, command: string, title: string): vscode.Disposable {
  return vscode.commands.registerCommand(command, async () => {
    try {
      await client.sendRequest(ExecuteCommandRequest.type, { command, arguments: [] });
    } catch (error) {
      void vscode.window.showErrorMessage(`Kube Resilience: cannot ${title}: ${(error as Error).message}`);
    }
  });
}
