import * as vscode from 'vscode';
import type { ClusterFinding, ClusterFindingsResult } from '../../../server/src/protocol';
import { groupClusterFindings, type FindingGroup } from './findings-groups';

type Node = FindingGroup | ClusterFinding | { note: string };

const SEVERITY_ICONS: Record<ClusterFinding['severity'], vscode.ThemeIcon> = {
  error: new vscode.ThemeIcon('error', new vscode.ThemeColor('problemsErrorIcon.foreground')),
  warning: new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground')),
  info: new vscode.ThemeIcon('info', new vscode.ThemeColor('problemsInfoIcon.foreground')),
  hint: new vscode.ThemeIcon('lightbulb'),
};

/** The "Cluster Findings" view: what the server finds about the cluster itself, outside any file. */
export class ClusterFindingsView implements vscode.TreeDataProvider<Node> {
  private groups: FindingGroup[] = [];
  private note = 'No cluster read yet.';
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly fetch: () => Promise<ClusterFindingsResult>) {}

  async refresh(): Promise<void> {
    try {
      const { findings } = await this.fetch();
      this.groups = groupClusterFindings(findings ?? []);
      this.note = 'No findings about the cluster itself.';
    } catch (error) {
      this.groups = [];
      this.note = `Cluster findings unavailable: ${(error as Error).message}`;
    }
    this.changed.fire();
  }

  getChildren(node?: Node): Node[] {
    if (!node) return this.groups.length ? this.groups : [{ note: this.note }];
    return 'findings' in node ? node.findings : [];
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if ('note' in node) return new vscode.TreeItem(node.note);
    if ('findings' in node) {
      const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Expanded);
      item.description = `${node.findings.length}`;
      return item;
    }
    const item = new vscode.TreeItem(node.message);
    // Without an id VS Code derives one from the label, and two equal labels break the whole tree.
    item.id = `${this.groups.findIndex((g) => g.findings.includes(node))}:${this.groups.flatMap((g) => g.findings).indexOf(node)}`;
    item.description = node.ruleId;
    item.tooltip = new vscode.MarkdownString(`**${node.ruleId}** (${node.severity})\n\n${node.message}`);
    item.iconPath = SEVERITY_ICONS[node.severity] ?? SEVERITY_ICONS.info;
    return item;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
