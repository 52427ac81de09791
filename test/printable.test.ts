import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inertInCiLogs, inertLinesInCiLogs, jsonText, printable, wellFormed, withoutControls } from '../server/src/printable';

describe('text from outside as it may be shown', () => {
  it('writes control, reordering and invisible characters as their escapes, so that names that differ look different', () => {
    assert.equal(withoutControls('a\u001b[2Jb\r\nc\td'), 'a\\u001b[2Jb\\r\\nc\\td');
    assert.equal(withoutControls('gpj\u202eexe \u0085 \u009b'), 'gpj\\u202eexe \\u0085 \\u009b');
    assert.deepEqual(['web\u200b', 'w\u061ceb', 'web\ufeff', 'web\u2028x', 'web\u{e0041}'].map(withoutControls), ['web\\u200b', 'w\\u061ceb', 'web\\ufeff', 'web\\u2028x', 'web\\udb40\\udc41']);
    // Letters and emoji are no hidden characters, whatever their planes.
    assert.equal(withoutControls('café 😀 日本'), 'café 😀 日本');
  });

  it('trims what it shows on one line before escaping (a trailing line break is no part of the name)', () => {
    assert.equal(printable('  kind: Foo\r\n'), 'kind: Foo');
    assert.equal(printable('a\nb'), 'a\\nb');
  });

  it('keeps GitHub Actions from reading a line as a workflow command: `::` first after blanks, `##[` anywhere', () => {
    assert.equal(inertInCiLogs('  ::error file=a::b'), '  \\u003a:error file=a::b');
    assert.equal(inertInCiLogs('x ##[set-output name=v]pass'), 'x #\\u0023[set-output name=v]pass');
    assert.equal(inertInCiLogs('a :: b # [c]'), 'a :: b # [c]');
  });

  it('makes every line of a text inert as a line of its own, and gives back a text with no such line as it is', () => {
    assert.equal(inertLinesInCiLogs('a\n \t::error::x\nb ##[c]\n::d'), 'a\n \t\\u003a:error::x\nb #\\u0023[c]\n\\u003a:d');
    assert.equal(inertLinesInCiLogs('::first'), '\\u003a:first');
    assert.equal(inertLinesInCiLogs('a\n  ::b'), 'a\n  \\u003a:b');
    // Only a line break starts a line: a carriage return inside a line is the line's.
    assert.equal(inertLinesInCiLogs('a\r::b\nx: ::y\n\n'), 'a\r::b\nx: ::y\n\n');
    const report = 'line :: one\n  "a": "::b"\n'.repeat(1000);
    assert.equal(inertLinesInCiLogs(report), report);
  });

  it('writes lone surrogates as U+FFFD and keeps pairs', () => {
    assert.equal(wellFormed('a\ud800b\udc00c😀'), 'a\ufffdb\ufffdc😀');
  });

  it('writes JSON whose value is the one given, but for lone surrogates, in keys too; hidden characters and `##[` escaped as JSON escapes', () => {
    const value = { 'node\ud800': ['x\u200b ##[error]y', 'a\u0085b\u007f'], ok: 1 };
    const text = jsonText(value);
    assert.doesNotMatch(text, /[\u007f-\u009f\u200b]|##\[|\\ud800/);
    assert.deepEqual(JSON.parse(text), { 'node\ufffd': ['x\u200b ##[error]y', 'a\u0085b\u007f'], ok: 1 });
    assert.equal(text, JSON.stringify(JSON.parse(text), null, 2).replace(/[\u007f\u0085\u200b]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).replace('##[', '#\\u0023['));
  });

  it('writes lone surrogates in a value with no other as U+FFFD too, and text that only spells an escape as it is', () => {
    assert.deepEqual(JSON.parse(jsonText({ a: ['ok', { b: 'x\udfff' }] })), { a: ['ok', { b: 'x\ufffd' }] });
    assert.deepEqual(JSON.parse(jsonText({ 'k\ud83d': 1 })), { 'k\ufffd': 1 });
    assert.deepEqual(JSON.parse(jsonText({ path: 'C:\\ud800', pair: '😀' })), { path: 'C:\\ud800', pair: '😀' });
    assert.equal(jsonText({ a: [1, 'b'] }), '{\n  "a": [\n    1,\n    "b"\n  ]\n}');
  });
});
