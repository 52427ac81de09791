// What client-node.ts loads on first use. The module that defines KubeConfig, not the package's index:
// a bundle keeps whatever a module loaded on demand imports, and the index imports every API client.
export { KubeConfig } from '@kubernetes/client-node/dist/config.js';
