// Side by side with yaml-language-server (pinned, schemas off), both driven over stdio in the same run,
// interleaved: on a generated 106,000-line file of 2,000 Deployments, a 35,000-line one, and argo-cd's
// install.yaml from ../shared/corpus (skipped when absent). Per file and server: initialize,
// didOpen → diagnostics, then 30 keystrokes → diagnostics (p50, p95) and when each answer starts arriving
// (the server's part), server CPU per keystroke (/proc/<pid>/stat), peak RSS (VmHWM); on argo-cd also 30
// keystrokes inside its largest CRD. A fresh server each round; each figure is the median of the rounds
// (peak RSS the highest). In the first round, 10 more keystrokes, each followed by what an editor asks
// besides diagnostics: completion at the cursor, the lightbulb on the Deployment's replicas line (with the
// server's own diagnostics there), code lenses.
// Run: npx tsx bench/servers.bench.ts   (or npm run bench)
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateManifests } from './generate';
import { intoDeploymentName, intoLargestCrd, lightbulbLine, type Keystrokes } from './keystrokes';
import { publishStarts } from './publish-starts';
import { corpusDir, cpuMs, median, peakRssBytes, percentile, report, startServer, stopServer, type ServerName } from './peer';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const KEYSTROKES = Number(process.env.BENCH_KEYSTROKES ?? 30);
const ASKED_KEYSTROKES = 10;
const SERVERS: ServerName[] = ['ours', 'yaml-ls'];

interface Input {
  name: string;
  text: string;
}

interface Typing {
  p50Ms: number;
  p95Ms: number;
  /** From the keystroke to the first bytes of its diagnostics: the server's part (the rest is carrying and reading them). */
  answerStartsP50Ms: number;
  answerStartsP95Ms: number;
  cpuMsPerKeystroke: number;
  peakRssBytes: number;
}

/** One kind of request an editor sends while one types: its latency over the keystrokes, and its answer's size. */
interface Asked {
  p50Ms: number;
  p95Ms: number;
  bytes: number;
}

const EDITOR_REQUESTS = ['completion', 'lightbulb', 'codeLens'] as const;
type EditorRequests = Record<(typeof EDITOR_REQUESTS)[number], Asked>;

interface Session {
  initializeMs: number;
  openMs: number;
  typing?: Typing;
  crdTyping?: Typing;
  editor?: EditorRequests;
}

function inputs(): Input[] {
  const list: Input[] = [
    { name: 'generated-106k', text: generateManifests(106_000) },
    { name: 'generated-35k', text: generateManifests(35_000) },
  ];
  const corpus = corpusDir();
  const argo = join(corpus ?? '', 'argo-cd', 'manifests', 'install.yaml');
  if (corpus && existsSync(argo)) list.push({ name: 'argo-cd-install', text: readFileSync(argo, 'utf8') });
  else console.log(`(no argo-cd/manifests/install.yaml in the corpus: left out)`);
  return list;
}

/** Types `count` characters, waiting for each keystroke's diagnostics before the next. */
async function type(started: Awaited<ReturnType<typeof startServer>>, uri: string, keystrokes: Keystrokes, count: number): Promise<Typing> {
  const { client, pid } = started;
  const latencies: number[] = [];
  const answerStarts: number[] = [];
  // The client's own garbage (the texts and diagnostics of the files before) is collected before the
  // timing starts, so that its collection does not land in a keystroke's time.
  (globalThis as { gc?: () => void }).gc?.();
  const cpuBefore = cpuMs(pid);
  const publishes = publishStarts(client.process.stdout!);
  try {
    for (let k = 0; k < count; k++) {
      const { range, newText } = keystrokes.edit(() => client.textOf(uri), k);
      publishes.reset();
      const start = performance.now();
      const version = await client.edit(uri, range, newText);
      // Both servers wait (debounce) before validating, so the answer cannot precede this registration.
      await client.nextDiagnostics(uri, version, 120_000);
      latencies.push(performance.now() - start);
      const answerStart = publishes.seenAt();
      if (answerStart !== undefined) answerStarts.push(answerStart - start);
    }
  } finally {
    publishes.stop();
  }
  // Every publish is seen; should one not be, the percentiles would be of fewer keystrokes than typed.
  if (answerStarts.length < count) console.log(`(the start of ${count - answerStarts.length} of ${count} answers was not seen)`);
  return {
    p50Ms: percentile(latencies, 50),
    p95Ms: percentile(latencies, 95),
    answerStartsP50Ms: percentile(answerStarts, 50),
    answerStartsP95Ms: percentile(answerStarts, 95),
    cpuMsPerKeystroke: (cpuMs(pid) - cpuBefore) / count,
    peakRssBytes: peakRssBytes(pid),
  };
}

/**
 * Types `count` more characters (keystrokes `from` on) and after each one's diagnostics asks what an editor
 * asks: completion where the cursor is, the lightbulb (an automatic code action) on the replicas line of the
 * Deployment typed into (its kind line when it has none) with the server's diagnostics there, and the file's
 * code lenses. One at a time, each timed until its answer is read.
 */
async function askAsAnEditor(started: Awaited<ReturnType<typeof startServer>>, uri: string, keystrokes: Keystrokes, from: number, count: number): Promise<EditorRequests> {
  const { client } = started;
  const times: Record<keyof EditorRequests, number[]> = { completion: [], lightbulb: [], codeLens: [] };
  const bytes: Record<keyof EditorRequests, number> = { completion: 0, lightbulb: 0, codeLens: 0 };
  const timed = async (request: keyof EditorRequests, method: string, params: unknown) => {
    const start = performance.now();
    const answer = await client.request(method, params);
    times[request].push(performance.now() - start);
    bytes[request] = JSON.stringify(answer ?? null).length;
  };
  let bulbLine: number | undefined;
  for (let k = from; k < from + count; k++) {
    const { range, newText } = keystrokes.edit(() => client.textOf(uri), k);
    bulbLine ??= lightbulbLine(client.textOf(uri), range.start.line);
    const diagnostics = await client.nextDiagnostics(uri, await client.edit(uri, range, newText), 120_000);
    const cursor = { line: range.start.line, character: range.start.character + newText.length };
    await timed('completion', 'textDocument/completion', { textDocument: { uri }, position: cursor, context: { triggerKind: 1 } });
    const bulb = { start: { line: bulbLine, character: 4 }, end: { line: bulbLine, character: 4 } };
    const there = diagnostics.filter((d) => d.range.start.line <= bulbLine! && d.range.end.line >= bulbLine!);
    await timed('lightbulb', 'textDocument/codeAction', { textDocument: { uri }, range: bulb, context: { diagnostics: there, triggerKind: 2 } });
    await timed('codeLens', 'textDocument/codeLens', { textDocument: { uri } });
  }
  const asked = (request: keyof EditorRequests): Asked => ({ p50Ms: percentile(times[request], 50), p95Ms: percentile(times[request], 95), bytes: bytes[request] });
  return { completion: asked('completion'), lightbulb: asked('lightbulb'), codeLens: asked('codeLens') };
}

async function session(server: ServerName, input: Input, path: string, withEditor: boolean): Promise<Session> {
  const started = await startServer(server);
  const uri = pathToFileURL(path).toString();
  try {
    const start = performance.now();
    const opened = started.client.nextDiagnostics(uri, 1, 120_000);
    await started.client.open(uri, input.text);
    await opened;
    const result: Session = { initializeMs: started.initializeMs, openMs: performance.now() - start };
    result.typing = await type(started, uri, intoDeploymentName(input.text), KEYSTROKES);
    if (withEditor) result.editor = await askAsAnEditor(started, uri, intoDeploymentName(input.text), KEYSTROKES, ASKED_KEYSTROKES);
    const crd = intoLargestCrd(started.client.textOf(uri));
    if (crd) result.crdTyping = await type(started, uri, crd, KEYSTROKES);
    return result;
  } finally {
    await stopServer(started);
  }
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
const kb = (bytes: number) => (bytes < 1e3 ? `${bytes} B` : `${(bytes / 1e3).toFixed(0)} kB`);
const ms = (value: number) => `${value.toFixed(value < 10 ? 1 : 0)} ms`;
const ratio = (a: number, b: number) => a / b;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'kube-resilience-bench-'));
  const perFile: Record<string, Record<ServerName, Session[]>> = {};
  try {
    for (const input of inputs()) {
      const path = join(dir, `${input.name}.yaml`);
      writeFileSync(path, input.text);
      const sessions: Record<ServerName, Session[]> = { ours: [], 'yaml-ls': [] };
      for (let round = 0; round < ROUNDS; round++) {
        // Interleaved, the first server alternating, so drift on a shared machine hits both alike.
        const order = round % 2 === 0 ? SERVERS : [...SERVERS].reverse();
        for (const server of order) sessions[server].push(await session(server, input, path, round === 0));
      }
      perFile[input.name] = sessions;
      printFile(input, sessions);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  summarise(perFile);
}

/**
 * A server's typing over its sessions: the median of each figure, as for the cold open (one session's p95 of
 * 30 keystrokes is its second slowest, one of the first after the open), and the highest peak of memory.
 */
function typingOf(sessions: Session[], which: 'typing' | 'crdTyping'): Typing | undefined {
  const typed = sessions.flatMap((s) => s[which] ?? []);
  if (typed.length === 0) return undefined;
  const of = (pick: (typing: Typing) => number) => median(typed.map(pick));
  return {
    p50Ms: of((t) => t.p50Ms),
    p95Ms: of((t) => t.p95Ms),
    answerStartsP50Ms: of((t) => t.answerStartsP50Ms),
    answerStartsP95Ms: of((t) => t.answerStartsP95Ms),
    cpuMsPerKeystroke: of((t) => t.cpuMsPerKeystroke),
    peakRssBytes: Math.max(...typed.map((t) => t.peakRssBytes)),
  };
}

function printFile(input: Input, sessions: Record<ServerName, Session[]>): void {
  console.log(`\n${input.name}: ${input.text.split('\n').length} lines, ${(input.text.length / 1e6).toFixed(1)} MB; ${ROUNDS} fresh servers each, ${KEYSTROKES} keystrokes in each: medians (peak RSS the highest)`);
  console.log(`${'server'.padEnd(14)} ${'init'.padStart(8)} ${'open'.padStart(9)} ${'key p50'.padStart(9)} ${'key p95'.padStart(9)} ${'starts p50/p95'.padStart(19)} ${'cpu/key'.padStart(9)} ${'peak RSS'.padStart(9)}`);
  for (const server of SERVERS) {
    const list = sessions[server];
    for (const [label, which] of [['', 'typing'], [' (CRD)', 'crdTyping']] as const) {
      const typing = typingOf(list, which);
      if (!typing) continue;
      const cold = label ? ['', ''] : [ms(median(list.map((s) => s.initializeMs))), ms(median(list.map((s) => s.openMs)))];
      console.log(`${(server + label).padEnd(14).slice(0, 14)} ${cold[0].padStart(8)} ${cold[1].padStart(9)} ${ms(typing.p50Ms).padStart(9)} ${ms(typing.p95Ms).padStart(9)} ${`${ms(typing.answerStartsP50Ms)} / ${ms(typing.answerStartsP95Ms)}`.padStart(19)} ${ms(typing.cpuMsPerKeystroke).padStart(9)} ${mb(typing.peakRssBytes).padStart(9)}`);
    }
  }
  console.log(`in the first session, after each of ${ASKED_KEYSTROKES} more keystrokes, what an editor asks (p50 / p95, answer size):`);
  console.log(`${'server'.padEnd(14)} ${EDITOR_REQUESTS.map((r) => r.padStart(26)).join(' ')}`);
  for (const server of SERVERS) {
    const editor = sessions[server].find((s) => s.editor)?.editor;
    if (editor) console.log(`${server.padEnd(14)} ${EDITOR_REQUESTS.map((r) => `${ms(editor[r].p50Ms)} / ${ms(editor[r].p95Ms)}, ${kb(editor[r].bytes)}`.padStart(26)).join(' ')}`);
  }
}

function summarise(perFile: Record<string, Record<ServerName, Session[]>>): void {
  const worst = (values: number[]) => Math.max(...values);
  const files = Object.values(perFile);
  const coldOf = (s: Session[]) => median(s.map((x) => x.openMs));
  const typed = (s: Record<ServerName, Session[]>, server: ServerName) => typingOf(s[server], 'typing')!;
  const peaks = (s: Record<ServerName, Session[]>) => {
    const ours = [typed(s, 'ours').peakRssBytes, typingOf(s.ours, 'crdTyping')?.peakRssBytes ?? 0];
    const theirs = [typed(s, 'yaml-ls').peakRssBytes, typingOf(s['yaml-ls'], 'crdTyping')?.peakRssBytes ?? 0];
    return Math.max(...ours) / Math.max(...theirs);
  };
  const typingRatios = (s: Record<ServerName, Session[]>, pick: (t: Typing) => number) =>
    (['typing', 'crdTyping'] as const).flatMap((which) => {
      const ours = typingOf(s.ours, which);
      const theirs = typingOf(s['yaml-ls'], which);
      return ours && theirs ? [ratio(pick(ours), pick(theirs))] : [];
    });
  const ratios = {
    coldOpenVsYamlLs: worst(files.map((s) => ratio(coldOf(s.ours), coldOf(s['yaml-ls'])))),
    editP95VsYamlLs: worst(files.flatMap((s) => typingRatios(s, (t) => t.p95Ms))),
    editCpuVsYamlLs: worst(files.flatMap((s) => typingRatios(s, (t) => t.cpuMsPerKeystroke))),
    editP95VsOwnCold: worst(files.flatMap((s) => [typingOf(s.ours, 'typing')!, typingOf(s.ours, 'crdTyping')].filter((t): t is Typing => !!t).map((t) => t.p95Ms / coldOf(s.ours)))),
    peakMemoryVsYamlLs: worst(files.map(peaks)),
  };
  const initializeMs = median(files.flatMap((s) => s.ours.map((x) => x.initializeMs)));
  console.log('\nratios (ours / yaml-language-server, the worst over the files):');
  for (const [name, value] of Object.entries(ratios)) console.log(`  ${name.padEnd(20)} ${value.toFixed(3)}`);
  console.log(`  initialize (ours, median) ${initializeMs.toFixed(0)} ms`);
  report({ ratios, initializeMs: Math.round(initializeMs), details: { sideBySide: perFile } });
}

void main().catch((error) => {
  console.error(error);
  process.exit(1);
});
