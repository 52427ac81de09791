import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { renderTools } from '../render/render-tools';
import { LspClient } from './lsp-client';

export interface EditorOnCopy {
  client: LspClient;
  dir: string;
  uri: (p: string) => string;
  /** Opens a file of the copy with its text on disk; its uri. */
  openFile: (p: string) => Promise<string>;
}

/**
 * Editors over copies of one fixture: each `open` starts the bundled server on a fresh copy (placed at
 * `folder` inside a temporary folder), with the pinned helm and kubectl on its PATH, in a trusted or
 * untrusted workspace (the copy, or its subfolder `root`), reading no cluster; `closeAll` shuts them down and
 * removes the copies.
 */
export function editorsOnCopies(server: string, fixture: string, folder = '', root = ''): { open(trusted: boolean, settings?: object, workspace?: Record<string, unknown>, codeAction?: Record<string, unknown>): Promise<EditorOnCopy>; closeAll(): Promise<void> } {
  const opened: EditorOnCopy[] = [];
  return {
    // `workspace` and `codeAction`: the client's workspace and code action capabilities.
    async open(trusted, settings = {}, workspace = {}, codeAction = {}) {
      const editor = await editorOnCopy(server, fixture, trusted, folder, root, settings, workspace, codeAction);
      opened.push(editor);
      return editor;
    },
    async closeAll() {
      for (const { client, dir } of opened.splice(0)) {
        // A case may have stopped its server itself.
        if (client.process.exitCode === null && client.process.signalCode === null) await client.shutdown();
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

async function editorOnCopy(server: string, fixture: string, trusted: boolean, folder: string, root: string, settings: object, workspace: Record<string, unknown>, codeAction: Record<string, unknown>): Promise<EditorOnCopy> {
  const dir = join(mkdtempSync(join(tmpdir(), 'kr-units-')), folder);
  cpSync(fixture, dir, { recursive: true });
  const savedPath = process.env.PATH;
  process.env.PATH = [renderTools().folder, savedPath].filter(Boolean).join(delimiter);
  const client = LspClient.start(server);
  process.env.PATH = savedPath;
  await client.initialize(pathToFileURL(join(dir, root)).toString(), { settings: { trusted, cluster: 'off', ...settings } }, codeAction, workspace);
  const uri = (p: string) => pathToFileURL(join(dir, p)).toString();
  const openFile = async (p: string) => {
    await client.open(uri(p), readFileSync(join(dir, p), 'utf8'));
    return uri(p);
  };
  return { client, dir, uri, openFile };
}
