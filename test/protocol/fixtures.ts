import type { Diagnostic } from 'vscode-languageserver';
import * as manifests from '../rules/manifests';

/** A Deployment named `name` (its pods labelled app: name) running `replicas`, its container pinned. */
export const deployment = (name: string, replicas: number) => manifests.deployment({ name, spec: `  replicas: ${replicas}\n`, container: '          # pinned\n' });
/** A PDB for the pods of the Deployment `name`. */
export const pdb = (name: string) => manifests.pdb('  maxUnavailable: 1\n', { name: `${name}-pdb`, selector: `    matchLabels:\n      app: ${name}\n` });

export const codes = (diagnostics: Diagnostic[]) => diagnostics.map((d) => String(d.code));
export const has = (ruleId: string) => (diagnostics: Diagnostic[]) => codes(diagnostics).includes(ruleId);
export const lacks = (ruleId: string) => (diagnostics: Diagnostic[]) => !codes(diagnostics).includes(ruleId);
