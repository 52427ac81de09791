// What client-node.ts loads on first use: the module that defines KubeConfig, not the package's index.
// A module loaded on demand keeps all it imports in the bundle, and the index adds the serializers of
// every API model (130 KB minified) to what config.js itself imports.
export { KubeConfig } from '@kubernetes/client-node/dist/config.js';
