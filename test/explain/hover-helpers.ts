import { Inventory } from '../../server/src/inventory/inventory';
import { parseManifest, type ManifestFile } from '../../server/src/manifest/parse';
import type { Finding } from '../../server/src/rules/types';
import { analyzeFile } from '../../server/src/rules/engine';
import { hoverAt, type HoverOptions } from '../../server/src/explain/hover';
import { indent, workloadYaml } from '../rules/probe-fixtures';

/** `text` parsed and analysed as file:///ws/manifest.yaml, with `others` as workspace files. */
export function analysed(text: string, others: Record<string, string> = {}): { file: ManifestFile; inventory: Inventory; findings: Finding[] } {
  const inventory = new Inventory();
  for (const [name, other] of Object.entries(others)) inventory.setFile(parseManifest(`file:///ws/${name}`, other));
  const file = parseManifest('file:///ws/manifest.yaml', text);
  inventory.setFile(file);
  return { file, inventory, findings: analyzeFile(file, inventory) };
}

/**
 * Hovers the first occurrence of `needle` (plus `shift` characters) in `text`, analysed with `others` as workspace
 * files, for a client that runs the drain simulation (as VS Code does) unless `options` say otherwise.
 */
export function hover(text: string, needle: string, others: Record<string, string> = {}, options: HoverOptions = {}, shift = 0): string | undefined {
  const { file, inventory, findings } = analysed(text, others);
  const at = text.indexOf(needle);
  if (at < 0) throw new Error(`"${needle}" is not in the text`);
  return hoverAt(file, file.lines.position(at + shift), inventory, findings, undefined, { drainLinks: true, ...options })?.text;
}

export function workload(kind: string, spec: string, template = ''): string {
  return workloadYaml(kind, spec, template, indent('- name: app\n  image: example/app:1.0\n  ports:\n    - name: http\n      containerPort: 8080\n  readinessProbe:\n    httpGet:\n      path: /ready\n      port: http\n'));
}

export const PDB = (budget: string) => `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: web-pdb
spec:
  ${budget}
  selector:
    matchLabels:
      app: web
`;
