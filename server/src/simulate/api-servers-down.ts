import type { Resource } from '../manifest/parse';

/**
 * The control-plane nodes whose API server was not serving when the cluster was read: the default/kubernetes
 * EndpointSlice lists one address per live API server (`check`'s control-plane-single reads it too), and a
 * control-plane node none of whose addresses it lists had none serving. Said only when every address listed
 * is one of a control-plane node's: an API server advertised on another address (a load balancer's, another
 * network's) leaves the evidence unreadable, and nothing is taken as down.
 */
export function apiServersDown(controlPlaneNodes: readonly Resource[], apiServerAddresses: readonly string[]): string[] {
  if (!apiServerAddresses.length) return [];
  const listed = new Set(apiServerAddresses);
  const addressesOf = (node: Resource) => (Array.isArray(node.object?.status?.addresses) ? node.object.status.addresses : []).map((a: { address?: unknown }) => a?.address).filter((a: unknown): a is string => typeof a === 'string');
  const known = new Set(controlPlaneNodes.flatMap(addressesOf));
  if (![...listed].every((address) => known.has(address))) return [];
  return controlPlaneNodes.filter((node) => node.name && !addressesOf(node).some((a: string) => listed.has(a))).map((node) => node.name!);
}
