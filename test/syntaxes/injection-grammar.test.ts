import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { before, describe, it } from 'node:test';
import { loadWASM, OnigScanner, OnigString } from 'vscode-oniguruma';
import { INITIAL, parseRawGrammar, Registry, type IGrammar, type StateStack } from 'vscode-textmate';

const require = createRequire(__filename);
const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
const declared = (manifest.contributes?.grammars ?? []).find((g: any) => g.scopeName === 'kube-resilience.injection');

/** The YAML grammar VS Code itself ships, when the editor tests have installed code-server; else undefined. */
function vscodeYamlGrammars(): string | undefined {
  const root = process.env.KUBE_RESILIENCE_EDITORS ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'kube-resilience-editors');
  if (!existsSync(root)) return undefined;
  for (const name of readdirSync(root).filter((n) => n.startsWith('code-server'))) {
    const dir = join(root, name, 'node_modules/code-server/lib/vscode/extensions/yaml/syntaxes');
    if (existsSync(join(dir, 'yaml.tmLanguage.json'))) return dir;
  }
  return undefined;
}

let wasmLoaded: Promise<void> | undefined;

async function grammarWith(baseFiles: Record<string, string>): Promise<IGrammar> {
  wasmLoaded ??= loadWASM(readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm')).buffer as ArrayBuffer);
  await wasmLoaded;
  const files: Record<string, string> = { ...baseFiles, 'kube-resilience.injection': resolve(declared.path) };
  const registry = new Registry({
    onigLib: Promise.resolve({ createOnigScanner: (sources: string[]) => new OnigScanner(sources), createOnigString: (text: string) => new OnigString(text) }),
    loadGrammar: async (scopeName) => (files[scopeName] ? parseRawGrammar(readFileSync(files[scopeName], 'utf8'), files[scopeName]) : null),
    getInjections: (scopeName) => (declared.injectTo.includes(scopeName) ? ['kube-resilience.injection'] : []),
  });
  const grammar = await registry.loadGrammar('source.yaml');
  assert.ok(grammar, 'the YAML grammar loads');
  return grammar!;
}

/** Scopes of the token holding the first character of `needle` on the line that contains it. */
function scopesOf(grammar: IGrammar, text: string, needle: string, occurrence = 0): string[] {
  let stack: StateStack = INITIAL;
  let seen = 0;
  for (const line of text.split('\n')) {
    const { tokens, ruleStack } = grammar.tokenizeLine(line, stack);
    stack = ruleStack;
    let from = 0;
    for (let at = line.indexOf(needle, from); at >= 0; at = line.indexOf(needle, from)) {
      if (seen++ === occurrence) return tokens.find((t) => t.startIndex <= at && at < t.endIndex)!.scopes;
      from = at + 1;
    }
  }
  throw new Error(`"${needle}" not found`);
}

const SAMPLE = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  annotations:
    kube-resilience/startup-seconds: "120"
    "kube-resilience/ignore": pdb-missing
    example.com/kube-resilience: other
spec:
  # kube-resilience-ignore single-replica, pdb-missing -- a demo nobody waits for
  replicas: 1
  # an ordinary comment that mentions kube-resilience-ignore single-replica
  template:
    metadata:
      annotations:
        note: |
          # kube-resilience-ignore single-replica
`;

function describeGrammar(label: string, baseFiles: () => Record<string, string> | undefined) {
  describe(`injection grammar over ${label}`, () => {
    let grammar: IGrammar;
    before(async function () {
      const files = baseFiles();
      if (!files) return;
      grammar = await grammarWith(files);
    });

    it('highlights the directive, each rule id, the separators and the reason', (t) => {
      if (!grammar) return t.skip(`${label} is not installed`);
      assert.ok(scopesOf(grammar, SAMPLE, '#', 0).includes('punctuation.definition.comment.yaml'));
      assert.ok(scopesOf(grammar, SAMPLE, 'kube-resilience-ignore').includes('keyword.control.directive.ignore.kube-resilience'));
      assert.ok(scopesOf(grammar, SAMPLE, 'single-replica').includes('constant.other.rule-id.kube-resilience'));
      assert.ok(scopesOf(grammar, SAMPLE, 'pdb-missing', 1).includes('constant.other.rule-id.kube-resilience'));
      assert.ok(scopesOf(grammar, SAMPLE, ', pdb').includes('punctuation.separator.comma.kube-resilience'));
      assert.ok(scopesOf(grammar, SAMPLE, '--').includes('punctuation.separator.reason.kube-resilience'));
      const reason = scopesOf(grammar, SAMPLE, 'a demo nobody');
      assert.ok(reason.includes('string.unquoted.reason.kube-resilience'));
      assert.ok(reason.includes('comment.line.number-sign.yaml'), 'the directive is still a comment for themes');
    });

    it('highlights kube-resilience annotation keys, quoted or not, and no other key', (t) => {
      if (!grammar) return t.skip(`${label} is not installed`);
      assert.ok(scopesOf(grammar, SAMPLE, 'kube-resilience/startup-seconds').includes('support.type.property-name.annotation.kube-resilience'));
      assert.ok(scopesOf(grammar, SAMPLE, 'kube-resilience/ignore').includes('support.type.property-name.annotation.kube-resilience'));
      assert.ok(!scopesOf(grammar, SAMPLE, 'example.com/kube-resilience').includes('support.type.property-name.annotation.kube-resilience'));
    });

    it('leaves ordinary comments and block scalars alone', (t) => {
      if (!grammar) return t.skip(`${label} is not installed`);
      assert.ok(!scopesOf(grammar, SAMPLE, 'kube-resilience-ignore', 1).includes('keyword.control.directive.ignore.kube-resilience'), 'a mention inside a comment');
      assert.ok(!scopesOf(grammar, SAMPLE, 'kube-resilience-ignore', 2).includes('keyword.control.directive.ignore.kube-resilience'), 'inside a block scalar');
    });
  });
}

describe('grammar declaration', () => {
  it('package.json injects the grammar into YAML', () => {
    assert.ok(declared, 'contributes.grammars declares kube-resilience.injection');
    assert.deepEqual(declared.injectTo, ['source.yaml']);
    assert.ok(existsSync(declared.path), `${declared.path} exists`);
  });
});

describeGrammar('a minimal YAML grammar', () => ({ 'source.yaml': resolve('test/syntaxes/minimal-yaml.tmLanguage.json') }));
describeGrammar("VS Code's YAML grammar", () => {
  const dir = vscodeYamlGrammars();
  if (!dir) return undefined;
  const files: Record<string, string> = { 'source.yaml': join(dir, 'yaml.tmLanguage.json') };
  for (const version of ['1.0', '1.1', '1.2', '1.3']) files[`source.yaml.${version}`] = join(dir, `yaml-${version}.tmLanguage.json`);
  files['source.yaml.embedded'] = join(dir, 'yaml-embedded.tmLanguage.json');
  return files;
});
