import * as path from 'node:path';
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { readSettings } from './settings';
import { SIMULATE_WORKLOAD_COMMAND } from '../../server/src/simulate/messages';
import { ServerCommands } from '../../server/src/protocol';

/** Starts the bundled language server over stdio (as other editors do, so one transport is measured and tested) for YAML and JSON files. */
export function createLanguageClient(context: vscode.ExtensionContext, output: vscode.LogOutputChannel): LanguageClient {
  const module = context.asAbsolutePath(path.join('dist', 'server.js'));
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.stdio },
    debug: { module, transport: TransportKind.stdio, options: { execArgv: ['--nolazy', '--inspect=6010'] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'yaml' },
      { scheme: 'untitled', language: 'yaml' },
      { scheme: 'file', language: 'json' },
    ],
    synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher('**/{*.yaml,*.yml,*.json,*.tpl,Kustomization}') },
    // Read at each start: a server restarted after a crash was given the settings of the extension's activation (a
    // context picked since, `cluster: off`, trust granted), and asks for none itself once given them.
    initializationOptions: () => ({ settings: readSettings(), clientCommands: [SIMULATE_WORKLOAD_COMMAND, ...Object.values(ServerCommands)] }),
    outputChannel: output,
    traceOutputChannel: output,
    // A finding's hover links to the simulator ("Simulate a drain of the node it runs on"): that command only.
    markdown: { isTrusted: { enabledCommands: [SIMULATE_WORKLOAD_COMMAND] } },
  };
  return new LanguageClient('kubeResilience', 'Kube Resilience', serverOptions, clientOptions);
}
