// dist/server.js in a real LSP client nobody here wrote: headless Neovim 0.7 and its built-in client.
import { join } from 'node:path';
import { describeLspEditor } from './lsp-editor-suite';

describeLspEditor({
  name: 'Neovim 0.7',
  command: 'nvim',
  args: () => ['--headless', '-u', 'NONE', '-i', 'NONE', '-c', `luafile ${join(__dirname, 'neovim-client.lua')}`],
});
