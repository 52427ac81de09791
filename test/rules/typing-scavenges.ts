// Run by incremental.test.ts under --trace-gc-nvp: types into a file as the server does, with one full
// collection between warming up and the keystrokes measured, so that the trace tells what the scavenges
// (the young generation's collections, every few megabytes allocated) promoted while typing.
import { generateManifests } from '../../bench/generate';
import { Inventory } from '../../server/src/inventory/inventory';
import { parseManifest, parseManifestAfterChanges } from '../../server/src/manifest/parse';
import { allocateInYoungGeneration } from '../../server/src/language/young-allocation';
import { IncrementalAnalysis } from '../../server/src/rules/incremental';
import { collectGarbage } from '../collect-garbage';

export const MEASURED_KEYSTROKES = 150;
const LINES = 20_000;

function main(): void {
  allocateInYoungGeneration(); // as the server does
  // Deployments (some of one replica, some with a PDB), Services, HPAs: findings with fixes, and questions
  // the inventory answers from its indexes.
  const text = generateManifests(LINES);
  const inventory = new Inventory();
  const analysis = new IncrementalAnalysis();
  let file = parseManifest('mine.yaml', text);
  inventory.setFile(file);
  analysis.analyze(file, inventory);
  const at = text.indexOf(`name: svc-${Math.floor(LINES / 200)}\n`) + `name: svc-${Math.floor(LINES / 200)}`.length;
  const keystroke = (k: number) => {
    file = parseManifestAfterChanges(file, [{ start: at + k, end: at + k, text: 'x' }]);
    inventory.setFile(file);
    analysis.analyze(file, inventory);
  };
  for (let k = 0; k < 40; k++) keystroke(k);
  collectGarbage();
  for (let k = 40; k < 40 + MEASURED_KEYSTROKES; k++) keystroke(k);
  if (!file.text.includes(`name: svc-${Math.floor(LINES / 200)}${'x'.repeat(40 + MEASURED_KEYSTROKES)}\n`)) throw new Error('the keystrokes did not land');
}

if (process.argv[1] === __filename) main();
