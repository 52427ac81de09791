import type { KubeConfig } from '@kubernetes/client-node';

/**
 * client-node's KubeConfig, loaded when a kubeconfig is first read. With what it depends on, client-node
 * is most of the bundle, and loading it took 70 ms of every start: every `check` of files alone paid it,
 * whether a cluster was read or not.
 */
export function newKubeConfig(): KubeConfig {
  const { KubeConfig: Loaded } = require('./client-node-exports') as typeof import('./client-node-exports');
  return new Loaded();
}
