// A process with work pending before it ends (see on-interrupt.test.ts): `pending` registers two cleanups, the
// first of which throws; `forgotten` registers one and forgets it. Each cleanup appends its name to the file named.
import { appendFileSync } from 'node:fs';
import { onInterrupt } from '../server/src/on-interrupt';

const [mode, log] = process.argv.slice(2);
const note = (name: string) => () => appendFileSync(log, `${name}\n`);
if (mode === 'pending') {
  onInterrupt(note('first registered'));
  onInterrupt(() => {
    note('last registered')();
    throw new Error('a cleanup that fails leaves the others to be done');
  });
} else {
  onInterrupt(note('forgotten'))();
}
setInterval(() => undefined, 1000);
process.stdout.write('ready\n');
