// The comment-keeping edits on real manifests: whatever field they are asked to change, the text they write
// parses, holds exactly the object asked for (that field changed, nothing else), keeps every other resource and
// every comment (but those inside a list or mapping replaced or removed whole), or they write nothing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyEdits, type TextEdit } from '../../server/src/fixes/edit';
import { appendDocument, appendToSequence, insertCommentAbove, removeField, replaceField, setField } from '../../server/src/fixes/yaml-edit';
import { parseManifest, type Resource } from '../../server/src/manifest/parse';
import { rangeOfPath, type Path } from '../../server/src/manifest/path';
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

/** The object with `change` made at `path` (its parent made when missing). */
function changed(object: unknown, path: Path, change: (parent: any, key: string | number) => void): unknown {
  const copy = structuredClone(object) as any;
  let parent = copy;
  for (const step of path.slice(0, -1)) parent = parent[step] ??= {};
  change(parent, path[path.length - 1]);
  return copy;
}

interface Operation {
  name: string;
  /** The paths it is tried on, and the edit and the object it should give there (undefined: not tried there). */
  paths(object: unknown): Path[];
  edit(resource: Resource, path: Path, random: () => number): { edits: TextEdit[] | undefined; expected: unknown; replacesWhole: boolean } | undefined;
}

const isCollection = (value: unknown) => value !== null && typeof value === 'object';

const OPERATIONS: Operation[] = [
  {
    name: 'setField',
    paths: (object) => pathsOf(object),
    edit(resource, path, random) {
      const value = pick(random, VALUES);
      return { edits: setField(resource, path, value), expected: changed(resource.object, path, (parent, key) => (parent[key] = value)), replacesWhole: isCollection(valueAt(resource.object, path)) };
    },
  },
  {
    name: 'removeField',
    paths: (object) => pathsOf(object).filter((p) => typeof p[p.length - 1] === 'string' && valueAt(object, p) !== undefined),
    edit: (resource, path) => ({ edits: removeField(resource, path), expected: changed(resource.object, path, (parent, key) => delete parent[key]), replacesWhole: true }),
  },
  {
    name: 'replaceField',
    paths: (object) => pathsOf(object).filter((p) => typeof p[p.length - 1] === 'string' && valueAt(object, p) !== undefined),
    edit(resource, path, random) {
      const value = pick(random, VALUES);
      const expected = changed(resource.object, path, (parent, key) => {
        const entries = Object.entries(parent).map(([k, v]) => (k === key ? ['renamedByTheTest', value] : [k, v]));
        for (const k of Object.keys(parent)) delete parent[k];
        Object.assign(parent, Object.fromEntries(entries));
      });
      return { edits: replaceField(resource, path, 'renamedByTheTest', value), expected, replacesWhole: true };
    },
  },
  {
    name: 'appendToSequence',
    paths: (object) => pathsOf(object).filter((p) => Array.isArray(valueAt(object, p))),
    edit(resource, path, random) {
      const item = pick(random, VALUES);
      return { edits: appendToSequence(resource, path, item), expected: changed(resource.object, path, (parent, key) => parent[key].push(item)), replacesWhole: false };
    },
  },
];

for (const operation of OPERATIONS) {
  describe(`${operation.name} on the corpus's manifests (seed ${SEED})`, () => {
    it('writes the object asked for, and nothing else changes: or it offers no edit', () => {
      const random = seeded(SEED);
      let edited = 0;
      for (const seed of seedFiles(80)) {
        const uri = 'file:///property.yaml';
        const file = parseManifest(uri, seed.text);
        if (file.documents.some((d) => d.parsed.error)) continue;
        file.resources.forEach((resource, index) => {
          const paths = operation.paths(resource.object).filter((p) => p[0] !== 'apiVersion' && p[0] !== 'kind');
          for (let n = 0; n < 6 && paths.length; n++) {
            const path = pick(random, paths);
            const tried = operation.edit(resource, path, random);
            if (!tried?.edits) continue;
            const label = `${seed.name}, resource ${index}, ${operation.name} at ${path.join('.')}`;
            const text = applyEdits(seed.text, tried.edits);
            const after = parseManifest(uri, text);
            assert.deepEqual(after.documents.map((d) => d.parsed.error?.message).filter(Boolean), [], `${label}: the result parses`);
            assert.equal(after.resources.length, file.resources.length, `${label}: no resource lost or added`);
            assert.deepEqual(after.resources[index].object, tried.expected, `${label}: the object is as asked`);
            after.resources.forEach((other, i) => i !== index && assert.deepEqual(other.object, file.resources[i].object, `${label}: resource ${i} unchanged`));
            if (!tried.replacesWhole) {
              const kept = new Set(comments(text));
              for (const comment of comments(seed.text)) assert.ok(kept.has(comment), `${label}: the comment ${comment} is kept`);
            } else if (!isCollection(valueAt(resource.object, path))) {
              // A scalar's line goes or changes whole: every comment on the other lines is kept.
              const lines = seed.text.split('\n');
              const line = rangeOfPath(resource, path).start.line;
              const kept = new Set(comments(text));
              for (const comment of comments([...lines.slice(0, line), ...lines.slice(line + 1)].join('\n'))) assert.ok(kept.has(comment), `${label}: the comment ${comment} is kept`);
            }
            edited++;
          }
        });
      }
      assert.ok(edited > 100, `only ${edited} edits checked`);
    });
  });
}

describe(`appendDocument and insertCommentAbove on the corpus's manifests (seed ${SEED})`, () => {
  it('a document appended is one more resource, the others as they were; a comment inserted changes no object', () => {
    const pdb = { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'added-by-the-test' }, spec: { maxUnavailable: 1, selector: { matchLabels: { app: 'web' } } } };
    let appendedCount = 0;
    let commented = 0;
    for (const seed of seedFiles(80)) {
      const uri = 'file:///property.yaml';
      const file = parseManifest(uri, seed.text);
      if (file.documents.some((d) => d.parsed.error)) continue;
      const objects = file.resources.map((r) => r.object);
      file.resources.forEach((resource, index) => {
        const label = `${seed.name}, resource ${index}`;
        const appended = appendDocument(resource, pdb);
        if (appended) {
          const after = parseManifest(uri, applyEdits(seed.text, appended));
          assert.deepEqual(after.documents.map((d) => d.parsed.error?.message).filter(Boolean), [], `${label}: appended, the result parses`);
          // After the resource's own document: after every item, when that is a List.
          const next = file.resources.reduce((last, r, i) => (r.document === resource.document ? i + 1 : last), 0);
          assert.deepEqual(after.resources.map((r) => r.object), [...objects.slice(0, next), pdb, ...objects.slice(next)], `${label}: the document follows the resource's own`);
          appendedCount++;
        }
        // Above the line of each key of the resource (where a finding sits and an ignore comment goes).
        for (const path of pathsOf(resource.object).filter((p) => valueAt(resource.object, p) !== undefined && typeof p[p.length - 1] === 'string').slice(0, 8)) {
          const offset = file.lines.offset(rangeOfPath(resource, path).start);
          const comment = insertCommentAbove(file, offset, 'kube-resilience-ignore single-replica');
          if (!comment) continue;
          const commentedText = applyEdits(seed.text, comment);
          const after = parseManifest(uri, commentedText);
          assert.deepEqual(after.resources.map((r) => r.object), objects, `${label}: a comment above ${path.join('.')} changes no object`);
          assert.match(commentedText.split('\n')[rangeOfPath(resource, path).start.line], /^\s*# kube-resilience-ignore single-replica\r?$/, `${label}: the comment is on its own line above ${path.join('.')}`);
          commented++;
        }
      });
    }
    assert.ok(appendedCount > 100 && commented > 100, `only ${appendedCount} documents appended and ${commented} comments inserted checked`);
  });
});
