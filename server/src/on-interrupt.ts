import { constants as osConstants } from 'node:os';

/**
 * Work that must be done before the process ends, however it ends: by Ctrl-C, a cancelled job (SIGTERM), a closing
 * terminal (SIGHUP) or an exit. The last registered is done first (a tool started for a check ends before the fix it
 * checks is put back).
 */
const pending: (() => void)[] = [];

// SIGHUP: the terminal closed (a session ending), which would otherwise leave a tool running or a fix unchecked.
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Has `cleanup` done if the process ends before the returned function is called (which forgets it). While any
 * cleanup is pending, those signals end the process with 128 + the signal, as a shell reports it, once the
 * cleanups are done; with none pending they keep their default, so that a long synchronous simulation is still
 * interrupted at once (a handler runs only when the event loop gets to it).
 */
export function onInterrupt(cleanup: () => void): () => void {
  const entry = () => cleanup();
  if (pending.length === 0) {
    if (unwatching) clearImmediate(unwatching);
    else watch(true);
    unwatching = undefined;
  }
  pending.push(entry);
  return () => {
    const at = pending.indexOf(entry);
    if (at < 0) return;
    pending.splice(at, 1);
    if (pending.length === 0) unwatchSoon();
  };
}

/**
 * The signals get their default back once the event loop has polled for them: one that came while synchronous work
 * was covered waits for the loop, and with its listener taken away at once it was lost (Ctrl-C during a fix's
 * writes let the run go on). Two turns: an immediate set during the poll phase runs before the loop polls again.
 */
let unwatching: NodeJS.Immediate | undefined;

/**
 * Once the signals have their default back after the last cleanup was forgotten: synchronous work started then (the
 * analysis after a render) is interrupted at once, where it kept Ctrl-C waiting for its end (20 s, or for ever).
 */
export function interruptibleAgain(): Promise<void> {
  return new Promise((resolve) => {
    const check = () => (unwatching ? setImmediate(check) : resolve());
    check();
  });
}

function unwatchSoon(): void {
  unwatching = setImmediate(() => {
    unwatching = setImmediate(() => {
      unwatching = undefined;
      watch(false);
    });
    unwatching.unref();
  });
  unwatching.unref();
}

function doPending(): void {
  const all = pending.splice(0).reverse();
  if (unwatching) clearImmediate(unwatching);
  unwatching = undefined;
  watch(false);
  for (const cleanup of all) {
    try {
      cleanup();
    } catch {
      // The others are done all the same.
    }
  }
}

function exitOn(signal: NodeJS.Signals): void {
  doPending();
  process.exit(128 + osConstants.signals[signal]);
}

function watch(on: boolean): void {
  if (on) process.once('exit', doPending);
  else process.removeListener('exit', doPending);
  for (const signal of SIGNALS) {
    if (on) process.on(signal, exitOn);
    else process.removeListener(signal, exitOn);
  }
}
