import type { ClusterStatus } from '../../../server/src/protocol';
import type { ClusterMode } from './resolve';
import { plural } from '../../../server/src/words';
import { codeSpan, markdownText } from '../../../server/src/explain/markdown-text';
import { literalLabel } from '../literal-label';

export interface StatusView {
  text: string;
  /** Markdown. */
  tooltip: string;
  /** What a screen reader says: the tooltip as plain text. */
  label: string;
  /** Draw the item in the warning colours. */
  warning: boolean;
}

const HELM = '⎈';
// etcd needs a majority: fewer than three members cannot lose one and keep the API up.
const QUORUM_SAFE_CONTROL_PLANES = 3;


function shortError(error: string): string {
  const line = error.split('\n')[0].trim();
  return line.length > 40 ? `${line.slice(0, 39)}…` : line;
}

function missingLines(status: ClusterStatus): string[] {
  if (!status.missing.length) return [];
  return ['', 'Not readable:', ...status.missing.map((m) => `- ${markdownText(m.resource)}: ${markdownText(m.reason)}`)];
}

function controlPlaneSummary(status: ClusterStatus): { text: string; warning: boolean } {
  if (status.controlPlanes === null) return { text: status.managed ? 'managed control plane' : 'control plane unknown', warning: false };
  const warning = status.controlPlanes < QUORUM_SAFE_CONTROL_PLANES;
  return { text: `${plural(status.controlPlanes, 'control plane')}${warning ? ' ⚠' : ''}`, warning };
}

const CLICK = '_Click to select a context or the embedded demo cluster._';

const STOPPED: Omit<StatusView, 'label'> = {
  text: `${HELM} stopped`,
  tooltip: 'The Kube Resilience language server has stopped: no cluster is read, and diagnostics are not updated. The **Kube Resilience** output says why; reload the window to start it again.',
  warning: true,
};

/** Markdown as it reads aloud: no emphasis marks, code quotes or escapes, one line. */
export function plainText(markdown: string): string {
  return markdown
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__|`)/g, '')
    .replace(/(^|\s)[_*]([^_*\n]+)[_*](?=[\s.,:;!?]|$)/g, '$1$2')
    .replace(/\\([\\`*_{}[\]()<>#+\-.!|&])/g, '$1')
    .replace(/^\s*- /gm, '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join(' ');
}

/** The status bar item for the cluster in use: context, one-glance verdict, or what went wrong. */
export function statusView(status: ClusterStatus | undefined, mode: ClusterMode, serverStopped = false): StatusView {
  const view = serverStopped ? STOPPED : statusMarkdown(status, mode);
  return { ...view, text: literalLabel(view.text), label: plainText(`Kube Resilience cluster: ${view.tooltip}`) };
}

function statusMarkdown(status: ClusterStatus | undefined, mode: ClusterMode): Omit<StatusView, 'label'> {
  if (mode === 'off') return { text: `${HELM} off`, tooltip: `Kube Resilience reads no cluster (\`kubeResilience.cluster\` is \`off\`).\n\n${CLICK}`, warning: false };
  if (!status) return { text: `${HELM} …`, tooltip: 'Kube Resilience is reading the cluster.', warning: false };
  const verdict = status.verdict ? `\n\n${status.verdict}` : '';
  if (status.error) {
    const kept = status.source !== 'none' ? `\n\nShowing the last view read (${status.source}).` : '';
    return {
      text: `${HELM} ${status.name ? `${status.name} · ` : ''}${shortError(status.errorCause ?? status.error)}`,
      tooltip: [`**Cannot read ${status.name ? `context ${codeSpan(status.name)}` : 'the cluster'}**`, '', markdownText(status.error), kept, '', CLICK].join('\n'),
      warning: true,
    };
  }
  if (status.source === 'none') {
    return { text: `${HELM} no cluster`, tooltip: `No kubeconfig context is in use: manifests are checked on their own.\n\n${CLICK}`, warning: false };
  }
  const planes = controlPlaneSummary(status);
  if (status.source === 'demo') {
    const fallback = status.fallback ? `\n\n${markdownText(status.fallback)}` : '';
    return { text: `${HELM} demo`, tooltip: [`**Embedded demo cluster** (${planes.text})${fallback}${verdict}`, '', CLICK].join('\n'), warning: false };
  }
  const origin = status.source === 'snapshot' ? 'Snapshot' : 'Context';
  return {
    text: `${HELM} ${status.name} · ${planes.text}`,
    tooltip: [`**${origin} ${codeSpan(status.name)}**: ${planes.text}${verdict}`, ...missingLines(status), '', CLICK].join('\n'),
    warning: planes.warning,
  };
}
