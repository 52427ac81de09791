import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fixFile, preferredFix } from '../../server/src/fixes/apply';
import { applyEdits } from '../../server/src/fixes/edit';
import { Inventory } from '../../server/src/inventory/inventory';
import { findManifestFiles } from '../../server/src/inventory/manifest-files';
import { mayHoldResources, parseManifest, type ManifestFile } from '../../server/src/manifest/parse';
import { analyzeFile } from '../../server/src/rules/engine';
import { RULES } from '../../server/src/rules/index';
import { HEADLINE_LIMIT, headlineLength, splitMessage } from '../../server/src/rules/message-parts';
import type { Finding } from '../../server/src/rules/types';

// Real manifests written by others, next to the repository; the suite stays green without them.
const CORPUS = join('..', 'shared', 'corpus');

const brokenDocuments = (file: ManifestFile) => file.documents.filter((d) => d.parsed.error).length;
const commentsOf = (text: string) => text.split(/\r?\n/).filter((line) => /^\s*#/.test(line)).map((line) => line.trim());
const signature = (f: Finding) => `${f.ruleId}|${f.resource?.kind}|${f.resource?.namespace}|${f.resource?.name}|${f.message}`;

/** One inventory per project of the corpus (its top-level folder), as a workspace would hold it. */
function loadProjects(): { name: string; inventory: Inventory; files: ManifestFile[] }[] {
  return readdirSync(CORPUS)
    .filter((name) => statSync(join(CORPUS, name)).isDirectory())
    .sort()
    .map((name) => {
      const inventory = new Inventory();
      const files = findManifestFiles(join(CORPUS, name)).map((path) => {
        const file = parseManifest(path, readFileSync(path, 'utf8'));
        inventory.setFile(file);
        return file;
      });
      return { name, inventory, files };
    });
}

describe('the corpus of real manifests', { skip: existsSync(CORPUS) ? false : `no corpus at ${CORPUS}: skipped` }, () => {
  const projects = existsSync(CORPUS) ? loadProjects() : [];
  const findingsByFile = new Map<ManifestFile, { inventory: Inventory; findings: Finding[] }>();

  it('analyses every file without a crash or an internal rule error', (t) => {
    const perRule = new Map<string, number>(RULES.map((rule) => [rule.meta.id, 0]));
    let files = 0;
    for (const { inventory, files: list } of projects) {
      for (const file of list) {
        const findings = analyzeFile(file, inventory);
        findingsByFile.set(file, { inventory, findings });
        files++;
        for (const f of findings) perRule.set(f.ruleId, (perRule.get(f.ruleId) ?? 0) + 1);
        const internal = findings.filter((f) => f.message.startsWith('Internal error in rule'));
        assert.deepEqual(internal.map((f) => `${relative(CORPUS, file.uri)}: ${f.message}`), []);
        for (const f of findings) {
          if (f.uri !== file.uri) continue;
          assert.ok(f.range && f.range.start.line < file.lines.lineCount, `${f.ruleId} has a range inside ${file.uri}`);
        }
      }
    }
    t.diagnostic(`${files} files, ${[...perRule.values()].reduce((a, b) => a + b, 0)} findings`);
    for (const [ruleId, count] of [...perRule].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))) t.diagnostic(`${String(count).padStart(5)}  ${ruleId}`);
    assert.ok(files > 0);
  });

  it('a file the workspace scan leaves unparsed (mayHoldResources) holds no resource when parsed', () => {
    const ruledOut = projects.flatMap((p) => p.files).filter((file) => !mayHoldResources(file.uri, file.text));
    assert.deepEqual(ruledOut.filter((file) => file.resources.length > 0).map((file) => relative(CORPUS, file.uri)), []);
    // Some are: the corpus has workflows, values files and JSON schemas beside its manifests.
    assert.ok(ruledOut.length > 0);
  });

  it(`every message opens with a sentence of at most ${HEADLINE_LIMIT} characters (a long name counted as 12)`, () => {
    const tooLong = [...findingsByFile].flatMap(([file, { findings }]) =>
      findings.filter((f) => f.uri === file.uri && headlineLength(f) > HEADLINE_LIMIT).map((f) => `${relative(CORPUS, file.uri)}: ${splitMessage(f.message).headline}`),
    );
    assert.deepEqual(tooLong, []);
  });

  it('every preferred fix converges: parses, removes its finding, keeps comments, and a second run changes nothing', () => {
    const problems: string[] = [];
    for (const [file, { inventory, findings }] of findingsByFile) {
      const fixable = findings.filter((f) => f.uri === file.uri && preferredFix(f));
      if (fixable.length === 0) continue;
      const name = relative(CORPUS, file.uri);
      const { text } = fixFile(file.uri, file.text, inventory);
      const fixed = parseManifest(file.uri, text);
      if (brokenDocuments(fixed) > brokenDocuments(file)) problems.push(`${name}: the fixed text does not parse`);
      const remaining = new Set(analyzeFile(fixed, inventory).map(signature));
      for (const f of fixable) if (remaining.has(signature(f))) problems.push(`${name}: ${f.ruleId} stays after its fix (${f.message})`);
      const kept = new Set(commentsOf(text));
      for (const comment of commentsOf(file.text)) if (!kept.has(comment)) problems.push(`${name}: the fix lost the comment ${comment}`);
      if (fixFile(file.uri, text, inventory).text !== text) problems.push(`${name}: a second fix run changes the text`);
      inventory.setFile(file);
    }
    assert.deepEqual(problems, []);
  });

  it('both ignore actions of every finding write valid YAML and silence it', () => {
    const problems: string[] = [];
    for (const [file, { inventory, findings }] of findingsByFile) {
      for (const f of findings) {
        if (f.uri !== file.uri) continue;
        for (const fix of f.fixes.filter((x) => x.title.startsWith('Ignore '))) {
          const after = parseManifest(file.uri, applyEdits(file.text, fix.edits));
          const where = `${relative(CORPUS, file.uri)}: "${fix.title}"`;
          if (brokenDocuments(after) > brokenDocuments(file)) problems.push(`${where} breaks the file`);
          inventory.setFile(after);
          if (analyzeFile(after, inventory).some((g) => signature(g) === signature(f))) problems.push(`${where} does not silence it`);
        }
      }
      inventory.setFile(file);
    }
    assert.deepEqual(problems, []);
  });
});
