// A process with work pending before it ends (see on-interrupt.test.ts): `pending` registers two cleanups, the
// first of which throws; `forgotten` registers one and forgets it; `signalled-while-pending` signals itself while one
// is pending and forgets it at once; `busy-after-forgotten` forgets one, waits until it may be interrupted again, and
// then works synchronously for 20 s. Each cleanup appends its name to the file named.
import { appendFileSync } from 'node:fs';
import { interruptibleAgain, onInterrupt } from '../server/src/on-interrupt';

const [mode, log] = process.argv.slice(2);
const note = (name: string) => () => appendFileSync(log, `${name}\n`);
if (mode === 'pending') {
  onInterrupt(note('first registered'));
  onInterrupt(() => {
    note('last registered')();
    throw new Error('a cleanup that fails leaves the others to be done');
  });
} else if (mode === 'signalled-while-pending') {
  // The signal comes while synchronous work is covered (it cannot be handled before the work ends), and the work
  // is done and its cleanup forgotten before the event loop gets to the signal.
  const forget = onInterrupt(note('forgotten after the work'));
  process.kill(process.pid, 'SIGINT');
  forget();
  setTimeout(() => {
    note('ran on after the signal')();
    process.exit(0);
  }, 300);
} else if (mode === 'busy-after-forgotten') {
  // As check does after a render: a tool's cleanup forgotten, then a long analysis that gives the event loop no turn.
  onInterrupt(note('forgotten'))();
  void interruptibleAgain().then(() => {
    process.stdout.write('ready\n');
    for (const until = Date.now() + 20_000; Date.now() < until; );
    note('worked to the end')();
    process.exit(0);
  });
} else {
  onInterrupt(note('forgotten'))();
}
setInterval(() => undefined, 1000);
// Once the loop has turned: a forgotten cleanup gives the signals their default back when it has polled for them.
if (mode !== 'busy-after-forgotten') setTimeout(() => process.stdout.write('ready\n'), 20);
