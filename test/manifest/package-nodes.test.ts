import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isMap, isScalar, isSeq, type Scalar, type YAMLMap, type YAMLSeq } from 'yaml';
import { readBlockYaml } from '../../server/src/manifest/block-yaml';
import { readJson } from '../../server/src/manifest/json-reader';

const mapOf = (text: string) => readBlockYaml(text)!.root as YAMLMap<Scalar, unknown>;

describe('the nodes the fast readers build', () => {
  it('keep no array of their own for a range, and give the package\'s range when it is read', () => {
    const root = mapOf('a: x\nb:\n- 1\n');
    const [first, second] = root.items;
    for (const node of [root, first.key, first.value as Scalar, second.value as YAMLSeq]) {
      assert.equal(Object.getOwnPropertyDescriptor(node, 'range'), undefined, 'no own range: 236,000 nodes of a 106k-line file kept 17 MB of arrays');
    }
    assert.deepEqual(root.range, [0, 12, 12]);
    assert.deepEqual(first.key.range, [0, 1, 1]);
    assert.deepEqual((first.value as Scalar).range, [3, 4, 5]);
    assert.deepEqual((second.value as YAMLSeq).range, [8, 12, 12]);
  });

  it('take a range written over, as the package writes one, and forget it when it is unset', () => {
    const node = mapOf('a: x\n').items[0].value as Scalar;
    node.range = [7, 8, 9];
    assert.deepEqual(node.range, [7, 8, 9]);
    node.range = undefined;
    assert.equal(node.range, undefined);
  });

  it('hand out a new array on each read: writing into one leaves the node as it was', () => {
    const node = mapOf('a: x\n').items[0].value as Scalar;
    node.range![0] = 99;
    assert.deepEqual(node.range, [3, 4, 5]);
  });

  it('are the same in flow collections and in JSON', () => {
    const flow = mapOf('a: [1, {b: c}]\n').items[0].value as YAMLSeq;
    assert.ok(isSeq(flow) && isMap(flow.items[1]));
    assert.equal(Object.getOwnPropertyDescriptor(flow, 'range'), undefined);
    assert.deepEqual(flow.range, [3, 14, 15]);
    const json = readJson('{"a": [1]}\n')!.root as YAMLMap<Scalar, YAMLSeq>;
    assert.ok(isScalar(json.items[0].key));
    assert.equal(Object.getOwnPropertyDescriptor(json.items[0].value!, 'range'), undefined);
    assert.deepEqual(json.items[0].value!.range, [6, 9, 9]);
  });
});
