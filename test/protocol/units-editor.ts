import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { renderTools } from '../render/render-tools';
import { LspClient } from './lsp-client';

/**
 * The bundled server on a copy of `fixture` (placed at `folder` inside a temporary folder), with the pinned
 * helm and kubectl on its PATH, in a trusted or untrusted workspace, reading no cluster.
 */
export async function editorOnCopy(server: string, fixture: string, trusted: boolean, folder = ''): Promise<{ client: LspClient; dir: string; uri: (p: string) => string }> {
  const dir = join(mkdtempSync(join(tmpdir(), 'kr-units-')), folder);
  cpSync(fixture, dir, { recursive: true });
  const savedPath = process.env.PATH;
  process.env.PATH = [renderTools().folder, savedPath].filter(Boolean).join(delimiter);
  const client = LspClient.start(server);
  process.env.PATH = savedPath;
  await client.initialize(pathToFileURL(dir).toString(), { settings: { trusted, cluster: 'off' } });
  return { client, dir, uri: (p) => pathToFileURL(join(dir, p)).toString() };
}
