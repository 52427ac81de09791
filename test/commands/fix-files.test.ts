import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { fixFiles, realTargetInside } from '../../server/src/commands/fix-files';
import { Inventory } from '../../server/src/inventory/inventory';
import { parseManifest } from '../../server/src/manifest/parse';

// One replica: the preferred fix sets two.
const SINGLE = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: 'web:1'}]}
`;

describe('fixFiles: --fix over the files read', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kr-fix-files-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const run = async (path: string, read: string) => {
    const inventory = new Inventory();
    inventory.setFile(parseManifest(path, read));
    return fixFiles([path], new Map([[path, dir]]), new Map([[path, { text: read, encoding: 'utf8' as const }]]), inventory, {});
  };

  it('writes the fixes of the text it read', async () => {
    const path = join(dir, 'web.yaml');
    writeFileSync(path, SINGLE);
    const outcome = await run(path, SINGLE);
    assert.equal(outcome.changed.length, 1);
    assert.match(readFileSync(path, 'utf8'), /replicas: 2/);
  });

  it('leaves a file saved since it was read with that save, and says so', async () => {
    const path = join(dir, 'web.yaml');
    const saved = `${SINGLE}# saved while the check ran\n`;
    writeFileSync(path, saved);
    const outcome = await run(path, SINGLE);
    assert.deepEqual(outcome.changed, []);
    assert.deepEqual(outcome.unchanged, [{ path, reason: 'changed since it was read: not written (run again to fix it as it is now)' }]);
    assert.equal(readFileSync(path, 'utf8'), saved);
  });

  it('takes a file whose name starts with two dots for one inside the tree (`..app.yaml` was "outside")', () => {
    const path = join(dir, '..app.yaml');
    writeFileSync(path, SINGLE);
    assert.deepEqual(realTargetInside(path, dir), { real: realpathSync(path) });
    const inner = join(dir, 'inner');
    mkdirSync(inner);
    assert.deepEqual(realTargetInside(path, inner), { reason: `a link to ${realpathSync(path)}, outside ${inner}: not written` });
  });
});
