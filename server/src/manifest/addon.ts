import type { Resource } from './parse';
import { metadataLabels } from './workload';

/**
 * Components the platform installs and manages (everything in kube-system, anything the addon
 * manager reconciles): their replicas, budgets and resources are the cluster operator's choice,
 * and a manifest author cannot act on findings about them.
 */
export function isClusterAddon(resource: Resource): boolean {
  const labels = metadataLabels(resource);
  return resource.namespace === 'kube-system' || 'addonmanager.kubernetes.io/mode' in labels || labels['kubernetes.io/cluster-service'] === 'true';
}
