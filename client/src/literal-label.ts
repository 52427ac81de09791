/**
 * A text shown as it is in a label VS Code reads icons in (the status bar, quick pick items): `$(name)` there is an
 * icon, and a context named `dev-$(zap)` showed a lightning bolt in its place. A backslash before it keeps it text.
 */
export function literalLabel(text: string): string {
  return text.replace(/\$\(/g, '\\$(');
}
