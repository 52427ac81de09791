// dist/server.js in a real LSP client nobody here wrote: Emacs 28 and eglot, set up by the README's own snippet.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './cli-findings';
import { describeLspEditor, server } from './lsp-editor-suite';

/** The README's Emacs snippet, pointed at this build and at the demo cluster the CLI is compared with. */
function readmeSnippet(): string {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const block = /Emacs 28\+ with eglot[^\n]*\n\n```elisp\n([\s\S]*?)```/.exec(readme);
  assert.ok(block, 'the README has an Emacs snippet');
  assert.ok(block[1].includes('/path/to/kube-resilience/dist/server.js') && block[1].includes('(:cluster "auto")'));
  return block[1].replace('/path/to/kube-resilience/dist/server.js', server).replace('(:cluster "auto")', '(:cluster "demo")');
}

describeLspEditor({
  name: 'Emacs 28 and eglot',
  command: 'emacs',
  prepare: (dir) => writeFileSync(join(dir, 'init.el'), readmeSnippet()),
  // package-initialize activates Debian's elpa-eglot, as a user's init does.
  args: (dir) => ['--batch', '-l', 'package', '--eval', '(package-initialize)', '--eval', `(setenv "KR_INIT" ${JSON.stringify(join(dir, 'init.el'))})`, '-l', join(__dirname, 'emacs-client.el')],
});
