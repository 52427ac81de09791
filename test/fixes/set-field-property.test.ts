// setField on real manifests: whatever field it is asked to set, the text it writes parses, holds exactly the
// value asked for there, keeps every other resource and every comment (but those inside a list or mapping it
// replaces whole), or it writes nothing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyEdits } from '../../server/src/fixes/edit';
import { setField } from '../../server/src/fixes/yaml-edit';
import { parseManifest } from '../../server/src/manifest/parse';
import type { Path } from '../../server/src/manifest/path';
import { valueAt } from '../../server/src/manifest/workload';
import { pick, seeded, seedFiles } from '../fuzz/mutate';

const SEED = Number(process.env.KR_FUZZ_SEED ?? 11);
const VALUES: unknown[] = [2, 'Recreate', true, [{ key: 'a', operator: 'Exists' }, { key: 'b', operator: 'Exists' }], { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0 } }, ['one', 'two']];

/** Every path of a parsed object, the keys of its mappings and the items of its lists, and one missing key below each mapping. */
function pathsOf(value: unknown, at: Path = [], out: Path[] = []): Path[] {
  if (Array.isArray(value)) value.forEach((item, i) => (out.push([...at, i]), pathsOf(item, [...at, i], out)));
  else if (value && typeof value === 'object') {
    out.push([...at, 'addedByTheTest']);
    for (const [key, child] of Object.entries(value)) {
      out.push([...at, key]);
      pathsOf(child, [...at, key], out);
    }
  }
  return out;
}

/** The comments of a text, as written (a `#` after a space or at a line's start, outside quotes as far as a line tells). */
function comments(text: string): string[] {
  return text.split('\n').flatMap((line) => {
    const at = line.search(/(^|\s)#/);
    return at < 0 || /["']/.test(line.slice(0, at)) ? [] : [line.slice(at).trim()];
  });
}

describe(`setField on the corpus's manifests (seed ${SEED})`, () => {
  it('writes the value asked for, where asked, and nothing else changes: or it offers no edit', () => {
    const random = seeded(SEED);
    let edited = 0;
    for (const seed of seedFiles(80)) {
      const uri = 'file:///property.yaml';
      const file = parseManifest(uri, seed.text);
      if (file.documents.some((d) => d.parsed.error)) continue;
      file.resources.forEach((resource, index) => {
        const paths = pathsOf(resource.object).filter((p) => p[0] !== 'apiVersion' && p[0] !== 'kind');
        for (let n = 0; n < 6 && paths.length; n++) {
          const path = pick(random, paths);
          const value = pick(random, VALUES);
          const edits = setField(resource, path, value);
          if (!edits) continue;
          const label = `${seed.name}, resource ${index}, ${path.join('.')} = ${JSON.stringify(value)}`;
          const text = applyEdits(seed.text, edits);
          const after = parseManifest(uri, text);
          assert.deepEqual(after.documents.map((d) => d.parsed.error?.message).filter(Boolean), [], `${label}: the result parses`);
          assert.equal(after.resources.length, file.resources.length, `${label}: no resource lost or added`);
          assert.deepEqual(valueAt(after.resources[index].object, path), value, `${label}: the value is there`);
          after.resources.forEach((other, i) => i !== index && assert.deepEqual(other.object, file.resources[i].object, `${label}: resource ${i} unchanged`));
          // A list or mapping replaced whole takes the comments inside it along; every other comment stays.
          const before = valueAt(resource.object, path);
          if (before === null || typeof before !== 'object') {
            const kept = new Set(comments(text));
            for (const comment of comments(seed.text)) assert.ok(kept.has(comment), `${label}: the comment ${comment} is kept`);
          }
          edited++;
        }
      });
    }
    assert.ok(edited > 100, `only ${edited} edits checked`);
  });
});
