// Generates docs/rules.md (the catalogue by failure scenario) and docs/rules/<id>.md (one page per rule)
// from the rules' metadata: `npm run docs`. test/docs checks the committed pages match.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fixFile, preferredFix } from '../server/src/fixes/apply';
import { Inventory } from '../server/src/inventory/inventory';
import { parseManifest } from '../server/src/manifest/parse';
import { analyzeFile } from '../server/src/rules/engine';
import { RULES } from '../server/src/rules/index';
import { splitMessage } from '../server/src/rules/message-parts';
import type { Rule, Scenario } from '../server/src/rules/types';

const SCENARIOS: Record<Scenario, string> = {
  'voluntary-disruption': 'Voluntary disruption: drains, upgrades, autoscaler scale-down',
  'involuntary-disruption': 'Involuntary disruption: a node dies, a pod dies',
  'health-checks': 'Health checks: liveness versus readiness',
  'special-hardware': 'Special hardware: GPUs',
  'node-agents': 'Node agents and the kubelet',
  'control-plane': 'Control plane',
  scheduling: 'Scheduling',
  input: 'Input',
};

const EXAMPLE_URI = 'file:///example/manifest.yaml';

/** The finding's first sentence in bold, as lists show it alone; the rest as it follows. */
function emphasisedHeadline(message: string): string {
  const { headline, details } = splitMessage(message);
  return details ? `**${headline}** ${details}` : message;
}

function fence(text: string, lang = 'yaml'): string {
  return ['```' + lang, text.replace(/\n$/, ''), '```'].join('\n');
}

/** The example run through the rule itself: the findings it really gives, and the text its preferred fixes write. */
function exampleSection(rule: Rule): string[] {
  if (!rule.meta.example) return ['## Example', '', 'No example yet.'];
  const inventory = new Inventory();
  const file = parseManifest(EXAMPLE_URI, rule.meta.example);
  inventory.setFile(file);
  const findings = analyzeFile(file, inventory, { rules: [rule] }).filter((f) => f.ruleId === rule.meta.id);
  const out = ['## Example', '', fence(rule.meta.example), ''];
  if (!findings.length) throw new Error(`the example of ${rule.meta.id} does not trigger it`);
  out.push('Finding' + (findings.length > 1 ? 's' : '') + ':', '', ...findings.map((f) => `- line ${(f.range?.start.line ?? 0) + 1} (${f.severity}): ${emphasisedHeadline(f.message)}`), '');
  if (findings.some((f) => preferredFix(f))) {
    const fixed = fixFile(EXAMPLE_URI, rule.meta.example, inventory, { rules: [rule] }, (f) => f.ruleId === rule.meta.id).text;
    out.push('After the fix:', '', fence(fixed), '');
  }
  return out;
}

/** Which of the rule's fixes `check --fix` and an editor's fix-all apply, and which wait for a person. */
function fixSafety(rule: Rule): string {
  if (!rule.meta.unsafeFixes) return '**Safety**: safe. Its fixes do not change what the application does; `check --fix` and the editor\'s "Fix all" apply them.';
  return `**Safety**: ${rule.meta.unsafeFixes} An unsafe fix is offered in the editor with what it changes, never as the preferred fix nor in "Fix all", and \`check --fix\` applies it only with \`--unsafe-fixes\`.`;
}

function rulePage(rule: Rule): string {
  const { meta } = rule;
  const lines = [
    `# ${meta.id}`,
    '',
    `Default severity: **${meta.severity}** · scenario: ${SCENARIOS[meta.scenario]}${meta.needsCluster ? ' · needs a live cluster or snapshot' : ''}`,
    '',
    '## What it finds',
    '',
    `${meta.title}.`,
    '',
    '## Why it matters',
    '',
    meta.description,
    '',
    ...exampleSection(rule),
    '## Fix',
    '',
    meta.fix ?? 'No automatic fix: the finding explains what to change.',
    '',
    ...(meta.fix ? [fixSafety(rule), ''] : []),
    '## Suppress',
    '',
    `- For one finding: the comment \`# kube-resilience-ignore ${meta.id} -- reason\` on the line above the underlined key (the quick fix "Ignore ${meta.id} here" writes it).`,
    `- For one resource: the annotation \`kube-resilience/ignore: "${meta.id}"\` on the resource or its pod template (comma-separated with other rule ids).`,
    `- Everywhere: the setting \`"kubeResilience.rules": { "${meta.id}": "off" }\` (or another severity), or \`kube-resilience check --rule ${meta.id}=off\`.`,
    '',
    '[All rules](../rules.md)',
    '',
  ];
  return lines.join('\n');
}

function indexPage(): string {
  const lines = ['# Rules', '', 'Generated from the rules\' metadata by `npm run docs`. Each rule belongs to the failure scenario it is about.', ''];
  for (const [scenario, heading] of Object.entries(SCENARIOS)) {
    const rules = RULES.filter((r) => r.meta.scenario === scenario);
    if (!rules.length) continue;
    lines.push(`## ${heading}`, '', '| rule | severity | finds | fix |', '|---|---|---|---|');
    for (const { meta } of rules) lines.push(`| [\`${meta.id}\`](rules/${meta.id}.md) | ${meta.severity} | ${meta.title} | ${meta.fix ? (meta.unsafeFixes ? 'yes (some unsafe)' : 'yes') : '—'} |`);
    lines.push('');
  }
  return lines.join('\n');
}

/** Every generated page, by its path relative to the repository root. */
export function renderDocs(): Map<string, string> {
  const pages = new Map<string, string>([['docs/rules.md', indexPage()]]);
  for (const rule of RULES) pages.set(`docs/rules/${rule.meta.id}.md`, rulePage(rule));
  return pages;
}

function main(): void {
  const pages = renderDocs();
  // Pages of rules that no longer exist go too.
  try {
    for (const name of readdirSync('docs/rules')) if (!pages.has(`docs/rules/${name}`)) rmSync(join('docs/rules', name));
  } catch {
    // No docs/rules yet.
  }
  for (const [path, text] of pages) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
  console.log(`wrote ${pages.size} pages`);
}

if (process.argv[1] && /gen-docs\.ts$/.test(process.argv[1])) main();
