// node-fetch 2 (under @kubernetes/client-node) takes `require('url').URL || whatwgUrl.URL`: Node's own URL is
// always there, so whatwg-url and its Unicode tables (tr46: a sixth of the language server's bundle) are never
// used. The bundles get this instead, which hands back Node's own.
const { URL, URLSearchParams } = require('node:url');

module.exports = { URL, URLSearchParams };
