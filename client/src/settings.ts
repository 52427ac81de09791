import * as vscode from 'vscode';

/** Every kubeResilience.* setting, read in this one place and pushed to the server. */
export interface ClientSettings {
  enable: boolean;
  run: 'onType' | 'onSave';
  rules: Record<string, string>;
}

export function readSettings(): ClientSettings {
  const config = vscode.workspace.getConfiguration('kubeResilience');
  return {
    enable: config.get<boolean>('enable', true),
    run: config.get<'onType' | 'onSave'>('run', 'onType'),
    rules: config.get<Record<string, string>>('rules', {}),
  };
}
