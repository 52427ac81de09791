import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';

const CLI = resolve('dist/cli.js');

/** The flags the README's "Command line" block documents, per command. */
function documentedFlags(): Map<string, Set<string>> {
  const readme = readFileSync('README.md', 'utf8');
  const section = readme.slice(readme.indexOf('## Command line'));
  const block = section.slice(section.indexOf('```') + 3, section.indexOf('```', section.indexOf('```') + 3));
  const flags = new Map<string, Set<string>>();
  let command = '';
  for (const line of block.split('\n')) {
    const start = /^kube-resilience (\S+)/.exec(line);
    // `kube-resilience --version` is no command.
    if (start) command = start[1].startsWith('-') ? '' : start[1];
    if (!command) continue;
    const set = flags.get(command) ?? new Set<string>();
    for (const flag of line.match(/(?<![\w-])--?[a-z][a-z0-9-]*/g) ?? []) set.add(flag);
    flags.set(command, set);
  }
  return flags;
}

describe('kube-resilience COMMAND --help', { skip: existsSync(CLI) ? false : 'dist/cli.js is not built (npm run build)' }, () => {
  const documented = documentedFlags();

  it('the README documents check, snapshot, simulate and rules', () => {
    assert.deepEqual([...documented.keys()].sort(), ['check', 'rules', 'simulate', 'snapshot']);
  });

  for (const [command, flags] of documented) {
    it(`${command} --help lists every flag the README documents for it`, () => {
      const run = spawnSync(process.execPath, [CLI, command, '--help'], { encoding: 'utf8' });
      assert.equal(run.status, 0, run.stderr);
      assert.match(run.stdout, new RegExp(`kube-resilience ${command}`));
      const missing = [...flags].filter((flag) => !new RegExp(`(?<![\\w-])${flag}(?![\\w-])`).test(run.stdout));
      assert.deepEqual(missing, [], run.stdout);
    });
  }

  it('after -- an argument that reads like --help is a path, checked as one (it printed the help)', () => {
    const run = spawnSync(process.execPath, [CLI, 'check', '--', '--help'], { encoding: 'utf8' });
    assert.deepEqual([run.status, run.stdout], [2, '']);
    assert.match(run.stderr, /^kube-resilience check: cannot read --help: /);
  });

  it('--version prints the version', () => {
    const run = spawnSync(process.execPath, [CLI, '--version'], { encoding: 'utf8' });
    assert.equal(run.status, 0);
    assert.match(run.stdout.trim(), /^\d+\.\d+\.\d+/);
  });

  it('rules and --version refuse what they do not take, as check does (they exited 0 without a word)', () => {
    for (const [args, said] of [
      [['rules', 'extra'], 'kube-resilience rules: takes no arguments (got "extra")\n'],
      [['rules', '--bogus'], 'kube-resilience rules: takes no arguments (got "--bogus")\n'],
      [['--version', 'extra'], 'kube-resilience --version: takes no arguments (got "extra")\n'],
    ] as const) {
      const run = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
      assert.deepEqual([run.status, run.stdout, run.stderr], [2, '', said], args.join(' '));
    }
  });
});
