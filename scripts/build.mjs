// Bundles the extension, the language server, the CLI and the webview with every dependency inside.
import * as esbuild from 'esbuild';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const production = process.argv.includes('--production');
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
// whatwg-url: see scripts/shims/whatwg-url.cjs (it also kept the deprecated built-in punycode out, which Node 21+
// warns about on stderr whenever it loads).
// client-node's generated API client: see scripts/shims/client-node-gen.mjs.
const clientNodeGen = {
  name: 'client-node-gen',
  setup(build) {
    build.onResolve({ filter: /^\.\/gen\/index\.js$/ }, (args) =>
      /[\\/]@kubernetes[\\/]client-node[\\/]dist[\\/]config\.js$/.test(args.importer) ? { path: fileURLToPath(new URL('./shims/client-node-gen.mjs', import.meta.url)) } : undefined,
    );
  },
};
const common = { bundle: true, sourcemap: !production, minify: production, logLevel: 'warning', legalComments: 'none', define: { __VERSION__: JSON.stringify(version) }, alias: { 'whatwg-url': './scripts/shims/whatwg-url.cjs' }, plugins: [clientNodeGen] };

await Promise.all([
  esbuild.build({ ...common, entryPoints: ['client/src/extension.ts'], outfile: 'dist/extension.js', platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'] }),
  esbuild.build({ ...common, entryPoints: ['server/src/main.ts'], outfile: 'dist/server.js', platform: 'node', format: 'cjs', target: 'node20' }),
  esbuild.build({ ...common, entryPoints: ['server/src/cli.ts'], outfile: 'dist/cli.js', platform: 'node', format: 'cjs', target: 'node20', banner: { js: '#!/usr/bin/env node' } }),
  esbuild.build({ ...common, entryPoints: ['media/src/webview.ts'], outfile: 'dist/webview.js', platform: 'browser', format: 'iife', target: 'chrome120' }),
]);
