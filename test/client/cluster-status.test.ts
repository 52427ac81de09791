import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ClusterStatus } from '../../server/src/protocol';
import { plainText, statusView } from '../../client/src/cluster/status-text';

function status(overrides: Partial<ClusterStatus>): ClusterStatus {
  return { source: 'live', name: 'prod', verdict: '', controlPlanes: 3, missing: [], ...overrides };
}

describe('cluster status bar text', () => {
  it('gives screen readers plain text, not Markdown', () => {
    const view = statusView(status({ controlPlanes: 1, error: 'connection refused by 127.0.0.1:9', errorCause: 'connection refused', source: 'none', name: 'down' }), 'auto');
    assert.match(view.tooltip, /\*\*Cannot read context `down`\*\*/);
    assert.equal(view.label, 'Kube Resilience cluster: Cannot read context down connection refused by 127.0.0.1:9 Click to select a context or the embedded demo cluster.');
    for (const mode of ['auto', 'off', 'demo'] as const) assert.doesNotMatch(statusView(status({}), mode).label, /[*`_]|\n/);
  });

  it('shows the context and a warning for a single control plane', () => {
    const view = statusView(status({ controlPlanes: 1, verdict: 'The API is gone while the one control plane is down.' }), 'auto');
    assert.equal(view.text, '⎈ prod · 1 control plane ⚠');
    assert.equal(view.warning, true);
    assert.match(view.tooltip, /The API is gone while the one control plane is down\./);
  });

  it('says the language server stopped, whatever it told last (the bar kept its last verdict, or "reading" for ever)', () => {
    const view = statusView(status({ controlPlanes: 3 }), 'auto', true);
    assert.deepEqual([view.text, view.warning], ['⎈ stopped', true]);
    assert.match(view.label, /language server has stopped: no cluster is read, and diagnostics are not updated/);
    assert.equal(statusView(undefined, 'auto', true).text, '⎈ stopped');
  });

  it("shows `$(…)` in a context's name or an error as written, not as an icon (VS Code draws one in the status bar)", () => {
    assert.equal(statusView(status({ name: 'dev-$(zap)', controlPlanes: 3 }), 'auto').text, '⎈ dev-\\$(zap) · 3 control planes');
    assert.equal(statusView(status({ name: 'x', error: 'refused by $(proxy)', source: 'none' }), 'auto').text, '⎈ x · refused by \\$(proxy)');
  });

  it('shows a quorum-safe control plane without a warning', () => {
    const view = statusView(status({ controlPlanes: 3 }), 'auto');
    assert.equal(view.text, '⎈ prod · 3 control planes');
    assert.equal(view.warning, false);
  });

  it('warns about two control planes too: etcd of two survives the loss of neither', () => {
    assert.equal(statusView(status({ controlPlanes: 2 }), 'auto').text, '⎈ prod · 2 control planes ⚠');
  });

  it('names a managed control plane instead of guessing its size', () => {
    assert.equal(statusView(status({ controlPlanes: null, managed: 'GKE', name: 'gke-eu' }), 'auto').text, '⎈ gke-eu · managed control plane');
  });

  it('says so when the control plane cannot be told, rather than calling it managed', () => {
    assert.equal(statusView(status({ controlPlanes: null, name: 'odd' }), 'auto').text, '⎈ odd · control plane unknown');
  });

  it('shows the embedded demo cluster as "⎈ demo"', () => {
    const view = statusView(status({ source: 'demo', name: 'demo', controlPlanes: 1, verdict: 'One control plane.' }), 'demo');
    assert.equal(view.text, '⎈ demo');
    assert.match(view.tooltip, /Embedded demo cluster/);
  });

  it('says once how many control planes, then why the demo stands in, then what that count means', () => {
    const fallback = 'Showing the embedded demo cluster: no kubeconfig found (the default location: ~/.kube/config).';
    const view = statusView(status({ source: 'demo', name: 'demo', controlPlanes: 1, verdict: 'One control plane: no API while it is down.', fallback }), 'auto');
    const paragraphs = view.tooltip.split('\n\n');
    assert.deepEqual(paragraphs.slice(0, 3).map(plainText), ['Embedded demo cluster (1 control plane ⚠)', fallback, 'One control plane: no API while it is down.']);
    assert.equal(view.tooltip.match(/1 control plane/g)?.length, 1);
  });

  it('says what went wrong when the cluster cannot be read, with the details in the tooltip', () => {
    const error = 'connect ECONNREFUSED 127.0.0.1:6443 while listing nodes (the API server did not answer within 5 s)';
    const view = statusView(status({ source: 'none', name: 'prod', error, controlPlanes: null }), 'auto');
    assert.equal(view.text, '⎈ prod · connect ECONNREFUSED 127.0.0.1:6443 whi…');
    assert.equal(view.warning, true);
    assert.ok(plainText(view.tooltip).includes(error));
    assert.match(view.tooltip, /Click to select a context/);
  });

  it('says the cause in a few words in the status bar, the full error in the tooltip', () => {
    const error = 'cannot read cluster "down" at https://127.0.0.1:9 (context "down"): connection refused by 127.0.0.1:9';
    const view = statusView(status({ source: 'none', name: 'down', error, errorCause: 'connection refused by 127.0.0.1:9', controlPlanes: null }), 'auto');
    assert.equal(view.text, '⎈ down · connection refused by 127.0.0.1:9');
    assert.ok(plainText(view.tooltip).includes(error));
  });

  it('shows what a kubeconfig or an API server says as text: no link, image or code span of theirs (a 403 message planted a link)', () => {
    const planted = '[Click](https://attacker.example/) ![px](https://attacker.example/p.png) <img src=x>';
    const name = 'a`b [x](https://attacker.example/)';
    const tooltips = [
      statusView(status({ source: 'none', name, error: `forbidden (403): ${planted}`, controlPlanes: null }), 'auto').tooltip,
      statusView(status({ name, missing: [{ resource: 'pods', reason: `forbidden (403): ${planted}` }] }), 'auto').tooltip,
      statusView(status({ source: 'demo', name: 'demo', fallback: `Showing the embedded demo cluster: ${planted}.` }), 'auto').tooltip,
    ];
    for (const tooltip of tooltips) {
      // Outside the name's code span, where Markdown reads nothing as a link.
      assert.doesNotMatch(tooltip.replace(/``.*?``/g, ''), /(?<!\\)\]\(https|(?<!\\)<img/, tooltip);
      assert.match(plainText(tooltip), /\[Click\]\(https:\/\/attacker\.example\/\) !\[px\]/);
    }
    // The name is one code span, fenced past its own backtick.
    assert.match(tooltips[0], /context ``a`b \[x\]\(https:\/\/attacker\.example\/\)``/);
  });

  it('leaves the name out when the server knows none (no context chosen, the kubeconfig failed)', () => {
    assert.equal(statusView(status({ source: 'none', name: '', error: 'no kubeconfig' }), 'auto').text, '⎈ no kubeconfig');
  });

  it('lists the resource types it could not read', () => {
    const view = statusView(status({ missing: [{ resource: 'poddisruptionbudgets', reason: 'forbidden' }] }), 'auto');
    assert.match(view.tooltip, /poddisruptionbudgets: forbidden/);
  });

  it('shows "no cluster" when there is none, "off" when switched off, and a wait before the first status', () => {
    assert.equal(statusView(status({ source: 'none', name: '' }), 'auto').text, '⎈ no cluster');
    assert.equal(statusView(status({}), 'off').text, '⎈ off');
    assert.equal(statusView(undefined, 'auto').text, '⎈ …');
  });
});
