// Bundles the extension, the language server, the CLI and the webview with every dependency inside.
import * as esbuild from 'esbuild';
import { readFileSync } from 'node:fs';

const production = process.argv.includes('--production');
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
// Node 21+ warns on stderr whenever the deprecated built-in punycode loads (node-fetch's whatwg-url needs it):
// bundle the userland copy instead, so the CLI and the server print nothing extra on Node 22.
const common = { bundle: true, sourcemap: !production, minify: production, logLevel: 'warning', legalComments: 'none', define: { __VERSION__: JSON.stringify(version) }, alias: { punycode: 'punycode/' } };

await Promise.all([
  esbuild.build({ ...common, entryPoints: ['client/src/extension.ts'], outfile: 'dist/extension.js', platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'] }),
  esbuild.build({ ...common, entryPoints: ['server/src/server.ts'], outfile: 'dist/server.js', platform: 'node', format: 'cjs', target: 'node20' }),
  esbuild.build({ ...common, entryPoints: ['server/src/cli.ts'], outfile: 'dist/cli.js', platform: 'node', format: 'cjs', target: 'node20', banner: { js: '#!/usr/bin/env node' } }),
  esbuild.build({ ...common, entryPoints: ['media/src/webview.ts'], outfile: 'dist/webview.js', platform: 'browser', format: 'iife', target: 'chrome120' }),
]);
