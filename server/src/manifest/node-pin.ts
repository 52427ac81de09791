import type { Path } from './path';
import { HOSTNAME_TOPOLOGY } from './spread';

/** A pod spec bound to one node: the node, the field below the pod spec that binds it, and which kind of field that is. */
export interface NodePin {
  node: string;
  field: Path;
  by: 'nodeName' | 'nodeSelector' | 'nodeAffinity';
}

/** The one hostname every required node-affinity term allows, when there is exactly one. */
function affinityPin(spec: any): string | undefined {
  const terms = spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  if (!Array.isArray(terms) || terms.length === 0) return undefined;
  const hosts = new Set<string>();
  for (const term of terms) {
    const allowed = hostsAllowedBy(term);
    if (!allowed) return undefined; // a term that allows any host frees the pod
    for (const host of allowed) hosts.add(host);
  }
  return hosts.size === 1 ? [...hosts][0] : undefined;
}

/**
 * The hosts one node-affinity term allows by name (the hostname label, or the node's name), or undefined when it names
 * none: its requirements are ANDed, so the names each `In` allows are intersected, and those a `NotIn` names taken out.
 */
function hostsAllowedBy(term: any): Set<string> | undefined {
  const requirements = [...(Array.isArray(term?.matchExpressions) ? term.matchExpressions : []), ...(Array.isArray(term?.matchFields) ? term.matchFields : [])];
  const byName = requirements.filter((r: any) => (r?.key === HOSTNAME_TOPOLOGY || r?.key === 'metadata.name') && Array.isArray(r.values));
  let allowed: Set<string> | undefined;
  for (const r of byName) if (r.operator === 'In') allowed = new Set(r.values.map(String).filter((host: string) => !allowed || allowed.has(host)));
  for (const r of byName) if (r.operator === 'NotIn') for (const host of r.values) allowed?.delete(String(host));
  return allowed;
}

/** The node a pod spec is bound to (`nodeName`, or a required node selector or node affinity on the hostname with one value), if any. */
export function nodePin(spec: any): NodePin | undefined {
  if (typeof spec?.nodeName === 'string' && spec.nodeName) return { node: spec.nodeName, field: ['nodeName'], by: 'nodeName' };
  const selected = spec?.nodeSelector?.[HOSTNAME_TOPOLOGY];
  if (typeof selected === 'string' && selected) return { node: selected, field: ['nodeSelector', HOSTNAME_TOPOLOGY], by: 'nodeSelector' };
  const pinned = affinityPin(spec);
  if (pinned) return { node: pinned, field: ['affinity', 'nodeAffinity', 'requiredDuringSchedulingIgnoredDuringExecution'], by: 'nodeAffinity' };
  return undefined;
}
