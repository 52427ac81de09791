// client-node's KubeConfig (config.js) imports two names from its generated API client (gen/index.js), for
// makeApiClient, which we never call: the index drags in every API and the serializers of every model (300 KB
// of the language server's bundle, minified). The bundles get the two names from their own modules instead.
export { createConfiguration } from '@kubernetes/client-node/dist/gen/configuration.js';
export { ServerConfiguration } from '@kubernetes/client-node/dist/gen/servers.js';
