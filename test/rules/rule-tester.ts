import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ClusterInfo } from '../../server/src/cluster/types';
import { fixFile, preferredFix } from '../../server/src/fixes/apply';
import { Inventory } from '../../server/src/inventory/inventory';
import { parseManifest } from '../../server/src/manifest/parse';
import { analyzeFile } from '../../server/src/rules/engine';
import type { Finding, Rule, Severity } from '../../server/src/rules/types';

export interface ExpectedFinding {
  /** The message, or a pattern it must match. */
  message?: string | RegExp;
  /** The exact text the finding's range covers (`replicas`, `livenessProbe`, …). */
  at?: string;
  /** 1-based line of the range start, when `at` alone is ambiguous. */
  line?: number;
  severity?: Severity;
  /** Related locations, each as `file name: text at its range` (`hpa.yaml: minReplicas`; the file under test is `manifest.yaml`). */
  related?: string[];
}

export interface ValidCase {
  name: string;
  code: string;
  /** Other workspace files, by name. */
  files?: Record<string, string>;
  cluster?: ClusterInfo;
  /** The YAML is meant not to parse (a rule's answer to broken input). */
  broken?: boolean;
  /** Analyse this file instead of `code` (with `code` as one more workspace file). */
}

export interface InvalidCase extends ValidCase {
  findings: ExpectedFinding[];
  /** The text after every preferred safe fix of this rule is applied (`--fix`); null to assert the rule offers none. */
  output?: string | null;
  /** The text after every preferred fix, unsafe ones too, is applied (`--fix --unsafe-fixes`). */
  unsafeOutput?: string;
  /** Findings of the rule the fixed text has, about what the fix made plain (a value quoted as written and then read). */
  fixLeaves?: RegExp[];
}

const URI = 'file:///test/manifest.yaml';

function analyse(rule: Rule, c: ValidCase): { findings: Finding[]; inventory: Inventory } {
  const inventory = new Inventory();
  if (c.cluster) inventory.setCluster(c.cluster.resources);
  for (const [name, text] of Object.entries(c.files ?? {})) inventory.setFile(parseManifest(`file:///test/${name}`, text));
  const file = parseManifest(URI, c.code);
  // A case whose YAML does not parse would pass as "does not fire" whatever the rule did.
  if (!c.broken) for (const [name, parsed] of [['manifest.yaml', file], ...Object.entries(c.files ?? {}).map(([n, t]) => [n, parseManifest(`file:///test/${n}`, t)] as const)] as const) assert.deepEqual(parsed.documents.flatMap((d) => (d.parsed.error ? [`${name}: ${d.parsed.error}`] : [])), []);
  inventory.setFile(file);
  const findings = analyzeFile(file, inventory, { rules: [rule], cluster: c.cluster }).filter((f) => f.ruleId === rule.meta.id);
  return { findings, inventory };
}

function relatedText(inventory: Inventory, related: Finding['related'][number]): string {
  const file = inventory.getFile(related.uri);
  const text = file ? file.text.slice(file.lines.offset(related.range.start), file.lines.offset(related.range.end)) : '(no such file)';
  return `${related.uri.replace('file:///test/', '')}: ${text}`;
}

function commentsOf(text: string): string[] {
  return text
    .split('\n')
    .map((l) => /#.*$/.exec(l)?.[0].trim())
    .filter((c): c is string => !!c && !c.startsWith('# kube-resilience-ignore'));
}

function assertFixes(rule: Rule, c: InvalidCase, inventory: Inventory, findings: readonly Finding[], expected: string, unsafeFixes: boolean): void {
  const options = { rules: [rule], cluster: c.cluster, unsafeFixes };
  const fixed = fixFile(URI, c.code, inventory, options, (f) => f.ruleId === rule.meta.id).text;
  assert.equal(fixed, expected);
  const reparsed = parseManifest(URI, fixed);
  assert.deepEqual(reparsed.documents.filter((d) => d.parsed.error).map((d) => d.parsed.error!.message), [], 'the fixed text parses');
  // Nor may it bring another finding of the rule about a resource it fixed, fixable or not (a budget that blocks as well).
  const subject = (f: Finding) => `${f.resource?.kind}/${f.resource?.namespace}/${f.resource?.name}`;
  const fixedSubjects = new Set(findings.filter((f) => preferredFix(f, unsafeFixes)).map(subject));
  const before = new Set(findings.map((f) => f.message));
  const left = analyzeFile(reparsed, inventory, options).filter(
    (f) => f.ruleId === rule.meta.id && (preferredFix(f, unsafeFixes) || (fixedSubjects.has(subject(f)) && !before.has(f.message) && !c.fixLeaves?.some((leaves) => leaves.test(f.message)))),
  );
  assert.deepEqual(left.map((f) => f.message), [], 'the fix makes the finding disappear');
  for (const comment of commentsOf(c.code)) assert.ok(fixed.includes(comment), `the fix keeps the comment ${comment}`);
  assert.equal(fixFile(URI, fixed, inventory, options, (f) => f.ruleId === rule.meta.id).text, fixed, 'fixing twice changes nothing');
}

/** ESLint's RuleTester, for our rules: cases that must not fire, cases that must, and fixed output. */
export function ruleTester(rule: Rule, cases: { valid: ValidCase[]; invalid: InvalidCase[] }): void {
  describe(rule.meta.id, () => {
    for (const c of cases.valid) {
      it(`does not fire: ${c.name}`, () => {
        const { findings } = analyse(rule, c);
        assert.deepEqual(findings.map((f) => f.message), []);
      });
    }
    for (const c of cases.invalid) {
      it(`fires: ${c.name}`, () => {
        const { findings, inventory } = analyse(rule, c);
        assert.equal(findings.length, c.findings.length, `expected ${c.findings.length} finding(s), got: ${JSON.stringify(findings.map((f) => f.message))}`);
        const file = parseManifest(URI, c.code);
        c.findings.forEach((expected, i) => {
          const actual = findings[i];
          if (expected.message instanceof RegExp) assert.match(actual.message, expected.message);
          else if (expected.message !== undefined) assert.equal(actual.message, expected.message);
          if (expected.severity) assert.equal(actual.severity, expected.severity);
          assert.ok(actual.range, 'finding has a range');
          if (expected.at !== undefined) {
            const text = c.code.slice(file.lines.offset(actual.range!.start), file.lines.offset(actual.range!.end));
            assert.equal(text, expected.at, 'range covers the expected text');
          }
          if (expected.line !== undefined) assert.equal(actual.range!.start.line + 1, expected.line, 'range starts on the expected line');
          if (expected.related !== undefined) assert.deepEqual(actual.related.map((r) => relatedText(inventory, r)), expected.related, 'related locations');
        });
        if (c.output === null) assert.equal(findings.filter((f) => preferredFix(f)).length, 0, 'the rule offers no safe fix');
        else if (c.output !== undefined) assertFixes(rule, c, inventory, findings, c.output, false);
        if (c.unsafeOutput !== undefined) assertFixes(rule, c, inventory, findings, c.unsafeOutput, true);
      });
    }
  });
}
