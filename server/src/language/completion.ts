import { CompletionItemKind, MarkupKind, type CompletionItem } from 'vscode-languageserver/node';
import { completionsAt, type Completion } from '../explain/completion';
import { RULES } from '../rules/index';
import type { Feature } from './features';

const KINDS: Record<Completion['kind'], CompletionItemKind> = {
  rule: CompletionItemKind.EnumMember,
  annotation: CompletionItemKind.Property,
  value: CompletionItemKind.Value,
  directive: CompletionItemKind.Keyword,
};

function toItem(c: Completion, index: number): CompletionItem {
  return {
    label: c.label,
    kind: KINDS[c.kind],
    detail: c.detail,
    documentation: c.documentation ? { kind: MarkupKind.Markdown, value: c.documentation } : undefined,
    textEdit: { range: c.range, newText: c.insertText },
    sortText: String(index).padStart(4, '0'),
  };
}

/** Completion of rule ids in ignore comments and annotations, kube-resilience annotation keys, and their values. */
export const completionFeature: Feature = {
  capabilities: { completionProvider: { triggerCharacters: [' ', ',', '/'] } },
  register(state) {
    state.connection.onCompletion(async (params) => {
      if (!state.settings.enable) return [];
      const findings = await state.findings(params.textDocument.uri);
      const doc = state.documents.get(params.textDocument.uri);
      if (!doc) return [];
      const reportedOn = (line: number) => findings.filter((f) => f.range?.start.line === line).map((f) => f.ruleId);
      return completionsAt(doc, params.position, RULES.map((r) => r.meta), reportedOn).map(toItem);
    });
  },
};
