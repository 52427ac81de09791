import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { renderHtml } from './html';
import { SimulationHost } from './host';
import { createNonce } from './nonce';

export const SIMULATION_VIEW_TYPE = 'kubeResilience.simulation';
const TITLE = 'What if the control plane dies?';

/** The one simulation panel: its webview, its host and its life in the editor. */
export class SimulationPanel {
  private static current: SimulationPanel | undefined;
  private readonly host: SimulationHost;

  /** Shows the panel (creating it when needed), optionally bringing one workload forward. */
  static show(context: vscode.ExtensionContext, client: LanguageClient, output: vscode.LogOutputChannel, focus?: { namespace: string; name: string }): void {
    let current = SimulationPanel.current;
    if (current) current.panel.reveal();
    else {
      const panel = vscode.window.createWebviewPanel(SIMULATION_VIEW_TYPE, TITLE, vscode.ViewColumn.Beside, SimulationPanel.options(context));
      current = SimulationPanel.current = new SimulationPanel(panel, context, client, output);
    }
    if (focus) current.host.focus(focus.namespace, focus.name);
  }

  /** A panel VS Code restored after a reload: the page restores its own state with getState(). */
  static revive(panel: vscode.WebviewPanel, context: vscode.ExtensionContext, client: LanguageClient, output: vscode.LogOutputChannel): void {
    SimulationPanel.current?.panel.dispose();
    panel.webview.options = SimulationPanel.options(context);
    SimulationPanel.current = new SimulationPanel(panel, context, client, output);
  }

  private static options(context: vscode.ExtensionContext): vscode.WebviewOptions & vscode.WebviewPanelOptions {
    return { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(context.extensionUri, 'dist'), vscode.Uri.joinPath(context.extensionUri, 'media')] };
  }

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    context: vscode.ExtensionContext,
    client: LanguageClient,
    output: vscode.LogOutputChannel,
  ) {
    const webview = panel.webview;
    this.host = new SimulationHost({
      request: (method, params) => client.sendRequest(method, params),
      post: (message) => void webview.postMessage(message),
      log: (message) => output.warn(message),
      openReport: async (markdown) => {
        const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: markdown });
        await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Active, preview: false });
      },
    });
    panel.iconPath = { light: vscode.Uri.joinPath(context.extensionUri, 'media', 'simulation-light.svg'), dark: vscode.Uri.joinPath(context.extensionUri, 'media', 'simulation-dark.svg') };
    webview.html = renderHtml({
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(context.extensionUri, 'dist', 'webview.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(context.extensionUri, 'media', 'webview.css')).toString(),
      cspSource: webview.cspSource,
      nonce: createNonce(),
    });
    const subscriptions = [
      webview.onDidReceiveMessage((message: unknown) => void this.host.receive(message)),
      // A hidden page is torn down (no retainContextWhenHidden): messages wait until it says ready again.
      panel.onDidChangeViewState(() => {
        if (!panel.visible) this.host.reset();
      }),
      panel.onDidDispose(() => {
        if (SimulationPanel.current === this) SimulationPanel.current = undefined;
        for (const s of subscriptions) s.dispose();
      }),
    ];
  }
}
