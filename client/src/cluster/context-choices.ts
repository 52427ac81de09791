import type { ClusterChoice } from '../settings';
import type { ContextListing } from '../../../server/src/cluster/contexts';
import { literalLabel } from '../literal-label';

export const DEMO_LABEL = 'Embedded demo cluster';

export interface ContextChoice {
  label: string;
  description?: string;
  detail?: string;
  choice: ClusterChoice;
}

/** What Select Context offers: each context, then the demo; with no context, a placeholder that says where it looked. */
export function contextChoices(listing: ContextListing, settings: { cluster: string; context?: string }): { contexts: ContextChoice[]; demo: ContextChoice; placeHolder: string } {
  // With the demo, or with no cluster read (`off`), no context is in use.
  const inUse = settings.cluster === 'demo' || settings.cluster === 'off' ? undefined : (settings.context ?? listing.current);
  const contexts = listing.contexts.map((c) => ({
    label: literalLabel(c.name),
    description: [c.name === inUse ? 'in use' : '', c.name === listing.current ? 'current-context' : ''].filter(Boolean).join(' · '),
    detail: literalLabel([c.cluster && `cluster ${c.cluster}`, c.user && `user ${c.user}`, c.namespace && `namespace ${c.namespace}`, c.file].filter(Boolean).join(' · ')),
    choice: { context: c.name },
  }));
  const demo = { label: DEMO_LABEL, description: settings.cluster === 'demo' ? 'in use' : 'no kubeconfig needed', choice: { demo: true as const } };
  // An item that cannot be chosen would be the one Enter picks: say it where the question is asked instead.
  const placeHolder = contexts.length
    ? 'Which cluster should the advisor read?'
    : `No contexts in ${listing.files.join(', ') || 'any kubeconfig'}${listing.problems.length ? ` (${listing.problems.join('; ')})` : ''}: the demo cluster needs none`;
  return { contexts, demo, placeHolder };
}
