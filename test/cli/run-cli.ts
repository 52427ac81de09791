import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

export const CLI = resolve('dist/cli.js');

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the bundled CLI without blocking this process, which may serve a fake API server. */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}, cwd?: string): Promise<Run> {
  return new Promise((done) => {
    const childEnv: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...env };
    if (!('KUBECONFIG' in env)) delete childEnv.KUBECONFIG;
    const child = spawn(process.execPath, [CLI, ...args], { env: childEnv, cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (status) => done({ status, stdout, stderr }));
  });
}
