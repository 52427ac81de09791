import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';

export interface FixtureContext {
  name: string;
  /** Its cluster's server; '' writes a cluster without one. */
  server: string;
  /** false: a context without a cluster, as `kubectl config set-context dev --namespace=…` writes one. */
  cluster?: false;
  ca?: string;
  /** A static bearer token, or an exec stanza, or neither. */
  token?: string;
  exec?: { command: string; args?: string[]; env?: { name: string; value: string }[]; installHint?: string };
  /** The user's whole `user:` entry, written as given (an auth provider, token files). */
  user?: Record<string, unknown>;
  namespace?: string;
}

export function tempDir(prefix = 'kr-cluster-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Writes a kubeconfig file with one cluster and user per context. */
export function writeKubeconfig(path: string, contexts: FixtureContext[], currentContext?: string): string {
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: contexts.filter((c) => c.cluster !== false).map((c) => ({ name: `${c.name}-cluster`, cluster: { server: c.server, ...(c.ca ? { 'certificate-authority-data': Buffer.from(c.ca).toString('base64') } : {}) } })),
    users: contexts.map((c) => ({
      name: `${c.name}-user`,
      user: c.user ?? (c.exec ? { exec: { apiVersion: 'client.authentication.k8s.io/v1', interactiveMode: 'Never', ...c.exec } } : c.token ? { token: c.token } : {}),
    })),
    contexts: contexts.map((c) => ({ name: c.name, context: { cluster: c.cluster === false ? '' : `${c.name}-cluster`, user: `${c.name}-user`, ...(c.namespace ? { namespace: c.namespace } : {}) } })),
    ...(currentContext !== undefined ? { 'current-context': currentContext } : {}),
  };
  writeFileSync(path, stringify(config));
  return path;
}

/** A small executable script (an exec credential plugin stand-in). */
export function writeScript(path: string, body: string): string {
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

export function credentialScript(token: string, markerFile?: string): string {
  const marker = markerFile ? `echo ran > '${markerFile}'\n` : '';
  return `${marker}echo '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"${token}"}}'`;
}

/** A local port nothing listens on (one was listened on and closed): its cluster refuses every connection. */
export async function closedPort(): Promise<number> {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  return port;
}
