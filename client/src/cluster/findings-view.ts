import * as vscode from 'vscode';
import type { ClusterFinding, ClusterFindingsResult, ClusterStatus } from '../../../server/src/protocol';
import { groupBySource, noFindingsNote, type FindingGroup, type SourceGroup } from './findings-groups';
import { markdownText } from '../../../server/src/explain/markdown-text';

type Node = SourceGroup | FindingGroup | ClusterFinding | { note: string };

export const REVEAL_CLUSTER_FINDING = 'kubeResilience.revealClusterFinding';

const SEVERITY_ICONS: Record<ClusterFinding['severity'], vscode.ThemeIcon> = {
  error: new vscode.ThemeIcon('error', new vscode.ThemeColor('problemsErrorIcon.foreground')),
  warning: new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground')),
  info: new vscode.ThemeIcon('info', new vscode.ThemeColor('problemsInfoIcon.foreground')),
  hint: new vscode.ThemeIcon('lightbulb'),
};
const SOURCE_ICONS: Record<SourceGroup['source'], vscode.ThemeIcon> = {
  cluster: new vscode.ThemeIcon('server-environment'),
  workload: new vscode.ThemeIcon('pulse'),
};

/** The "Cluster Findings" view: what the server finds about the cluster itself and the live workloads outside any file. */
export class ClusterFindingsView implements vscode.TreeDataProvider<Node> {
  private sources: SourceGroup[] = [];
  private note = 'No cluster read yet.';
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;

  /** @param status The cluster status the server told last (undefined while it reads). */
  constructor(
    private readonly fetch: () => Promise<ClusterFindingsResult>,
    private readonly status: () => ClusterStatus | undefined,
  ) {}

  async refresh(): Promise<void> {
    try {
      const { findings } = await this.fetch();
      this.sources = groupBySource(findings ?? []);
      this.note = noFindingsNote(this.status());
    } catch (error) {
      this.sources = [];
      this.note = `Cluster findings unavailable: ${(error as Error).message}`;
    }
    this.changed.fire();
  }

  getChildren(node?: Node): Node[] {
    if (!node) return this.sources.length ? this.sources : [{ note: this.note }];
    if ('groups' in node) return node.groups;
    return 'findings' in node ? node.findings : [];
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if ('note' in node) return new vscode.TreeItem(node.note);
    if ('groups' in node) {
      const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Expanded);
      item.id = `source:${node.source}`;
      item.description = `${node.groups.reduce((n, g) => n + g.findings.length, 0)}`;
      item.tooltip = node.source === 'cluster' ? 'The cluster\'s own shape: control plane, DNS, nodes.' : 'Workloads running in the cluster that no manifest of this workspace defines.';
      item.iconPath = SOURCE_ICONS[node.source];
      return item;
    }
    if ('findings' in node) {
      const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Expanded);
      item.id = `group:${node.id}`;
      item.description = `${node.findings.length}`;
      return item;
    }
    const item = new vscode.TreeItem(node.headline);
    // Without an id VS Code derives one from the label, and two equal labels break the whole tree.
    const all = this.sources.flatMap((s) => s.groups.flatMap((g) => g.findings));
    item.id = `finding:${all.indexOf(node)}`;
    item.description = node.ruleId;
    // The headline and details name what the cluster calls its objects: text, not Markdown (a link or an image of theirs would show).
    item.tooltip = new vscode.MarkdownString(`**${markdownText(node.ruleId)}** (${node.severity})\n\n`).appendText(`${node.headline}${node.details ? `\n\n${node.details}` : ''}`);
    item.iconPath = SEVERITY_ICONS[node.severity] ?? SEVERITY_ICONS.info;
    if (node.location || node.resource?.name) item.command = { command: REVEAL_CLUSTER_FINDING, title: 'Reveal', arguments: [node] };
    return item;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
