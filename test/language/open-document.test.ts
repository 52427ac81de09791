import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TextDocument, type TextDocumentContentChangeEvent } from 'vscode-languageserver-textdocument';
import { OpenDocument } from '../../server/src/language/open-document';

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => ((state = (state * 1664525 + 1013904223) >>> 0), state / 2 ** 32);
}

/** Every answer of `ours` equals the library document's, at every offset and line (and a few beyond). */
function assertSame(ours: OpenDocument, library: TextDocument, context: string): void {
  const text = library.getText();
  // Ranges and lines first: read before the whole text, they come from the pieces an edit left.
  const lines = library.lineCount;
  for (let line = -1; line <= lines; line++) {
    assert.equal(ours.lineText(line), library.getText(library.getLineRange(line)), `${context}: lineText(${line})`);
    const end = { line: lines - line, character: line % 5 };
    assert.equal(ours.getText({ start: { line, character: 2 }, end }), library.getText({ start: { line, character: 2 }, end }), `${context}: getText(${line}:2, ${end.line}:${end.character})`);
  }
  assert.equal(ours.getText(), text, context);
  assert.equal(ours.lineCount, library.lineCount, context);
  for (let offset = -1; offset <= text.length + 1; offset++) assert.deepEqual(ours.positionAt(offset), library.positionAt(offset), `${context}: positionAt(${offset})`);
  for (let line = -1; line <= library.lineCount; line++) {
    for (let character = -1; character <= 12; character++) assert.equal(ours.offsetAt({ line, character }), library.offsetAt({ line, character }), `${context}: offsetAt(${line}:${character})`);
    assert.deepEqual(ours.getLineRange(line), library.getLineRange(line), `${context}: getLineRange(${line})`);
    assert.equal(ours.getEOLCharacters(line), library.getEOLCharacters(line), `${context}: getEOLCharacters(${line})`);
  }
}

/**
 * A random edit of `text` as a client sends it: a range (possibly reversed, or past a line's end) and new
 * text. Its lines exist: given a line past the end, the library's own line index goes wrong.
 */
function randomChange(next: () => number, document: TextDocument, inserts: readonly string[]): TextDocumentContentChangeEvent {
  const position = () => ({ line: Math.floor(next() * document.lineCount), character: Math.floor(next() * 10) });
  const text = inserts[Math.floor(next() * inserts.length)];
  return { range: { start: position(), end: next() < 0.5 ? position() : position() }, text };
}

/** 300 lines of keys and values of several lengths. */
const MANY_LINES = Array.from({ length: 300 }, (_, i) => `key${i}: ${'v'.repeat(i % 7)}`).join('\n') + '\n';

/** That `changes`, applied in one update, make of `start` what they make of the library's document, and that the log of them rebuilds it. */
function assertAppliedAsLibrary(start: string, changes: TextDocumentContentChangeEvent[], context: string): void {
  const ours = new OpenDocument('file:///m.yaml', 'yaml', 1, start);
  const library = TextDocument.create('file:///m.yaml', 'yaml', 1, start);
  const before = ours.revision;
  TextDocument.update(library, changes, 2);
  ours.update(changes, 2);
  assertSame(ours, library, context);
  const replayed = ours.changesSince(before)?.reduce((current, c) => current.slice(0, c.start) + c.text + current.slice(c.end), start);
  assert.equal(replayed, ours.getText(), `${context}: the log rebuilds the text`);
}

describe('OpenDocument', () => {
  it('answers as the library document does after random edits, line breaks and reversed ranges included', () => {
    const next = random(9);
    for (let round = 0; round < 150; round++) {
      const start = ['a: 1\nb: 2\n', '', 'x', '---\nkind: Pod\n\n\n'][round % 4];
      const ours = new OpenDocument('file:///d.yaml', 'yaml', 1, start);
      const library = TextDocument.create('file:///d.yaml', 'yaml', 1, start);
      for (let version = 2; version < 12; version++) {
        // Each change of one update applies to the text the ones before it made.
        const copy = TextDocument.create('file:///d.yaml', 'yaml', 1, library.getText());
        const changes = Array.from({ length: 1 + Math.floor(next() * 3) }, () => {
          const change = randomChange(next, copy, ['', 'y', '\n', 'ab\ncd', '\n\n', 'kind: Service\n']);
          TextDocument.update(copy, [change], version);
          return change;
        });
        const before = library.getText();
        TextDocument.update(library, changes, version);
        ours.update(changes, version);
        assert.equal(ours.version, version);
        if (next() < 0.5) assertSame(ours, library, `round ${round}, version ${version}, from ${JSON.stringify(before)}`);
      }
      assertSame(ours, library, `round ${round}`);
    }
  });

  it('applies an edit of many places at once (each change before the one before it, as an editor sends one) as the library does', () => {
    const next = random(13);
    for (let round = 0; round < 40; round++) {
      const start = MANY_LINES;
      const library = TextDocument.create('file:///m.yaml', 'yaml', 1, start);
      // From the end backwards: inserts, deletions across lines, two changes at one place, reversed ranges, and
      // now and then a character past its line's end, where the text before applies one change at a time.
      const changes: TextDocumentContentChangeEvent[] = [];
      let line = library.lineCount - 1;
      while (line > 1) {
        const from = { line: line - (next() < 0.2 ? 1 : 0), character: Math.floor(next() * 4) };
        const to = { line, character: next() < 0.05 ? 40 : Math.floor(next() * 3) };
        const range = from.line === to.line && from.character > to.character ? { start: to, end: from } : { start: from, end: to };
        changes.push({ range: next() < 0.1 ? { start: range.end, end: range.start } : range, text: ['', 'z', '\n', 'a: 1\n  b: 2\n'][Math.floor(next() * 4)] });
        if (next() < 0.1) changes.push({ range: { start: range.start, end: range.start }, text: 'q' });
        line -= 1 + Math.floor(next() * 3);
      }
      assertAppliedAsLibrary(start, changes, `round ${round}`);
    }
  });

  it('applies an edit of many places from the top down at once (each change after the text the one before it put in, as Neovim sends a substitution) as the library does', () => {
    const next = random(17);
    for (let round = 0; round < 40; round++) {
      const start = MANY_LINES;
      // Each change read on the text the ones before it made: at or after the end of what the last one put in, now and
      // then right there, across lines, reversed, or at a character past its line's end (applied on its own).
      const copy = TextDocument.create('file:///a.yaml', 'yaml', 1, start);
      const changes: TextDocumentContentChangeEvent[] = [];
      for (let at = 0; at < copy.getText().length - 60; ) {
        const from = at + (next() < 0.1 ? 0 : Math.floor(next() * 40));
        const to = from + (next() < 0.3 ? 0 : Math.floor(next() * 12));
        const range = { start: copy.positionAt(from), end: copy.positionAt(to) };
        if (next() < 0.03) range.end = { line: range.end.line, character: range.end.character + 80 };
        const text = ['', 'z', '\n', 'a: 1\n  b: 2\n', 'replaced'][Math.floor(next() * 5)];
        const change = { range: next() < 0.1 ? { start: range.end, end: range.start } : range, text };
        changes.push(change);
        TextDocument.update(copy, [change], 2);
        at = copy.offsetAt(range.start) + text.length;
        if (copy.offsetAt(range.end) > copy.offsetAt(range.start) + text.length) at = copy.offsetAt(range.start) + text.length;
      }
      assertAppliedAsLibrary(start, changes, `round ${round}`);
    }
  });

  it('applies an edit of many places at once to a text with carriage returns too, as the library does, without the library\'s change at a time (5,900 took 6 s)', () => {
    const next = random(21);
    const libraryUpdate = TextDocument.update;
    for (let round = 0; round < 30; round++) {
      const start = Array.from({ length: 200 }, (_, i) => `key${i}: ${'v'.repeat(i % 7)}`).join(round % 3 ? '\r\n' : '\n') + '\r\n';
      const ours = new OpenDocument('file:///c.yaml', 'yaml', 1, start);
      const library = TextDocument.create('file:///c.yaml', 'yaml', 1, start);
      const changes: TextDocumentContentChangeEvent[] = [];
      // Each change on lines above the one before it, as a Replace All sends them (one across two lines now and then).
      for (let line = library.lineCount - 2; line > 2; ) {
        const from = { line: line - (next() < 0.2 ? 1 : 0), character: Math.floor(next() * 4) };
        const to = { line, character: Math.floor(next() * 3) };
        changes.push({ range: from.line === to.line && from.character > to.character ? { start: to, end: from } : { start: from, end: to }, text: ['', 'z', '\r\n', '\r', 'a: 1\r\n  b: 2\r\n'][Math.floor(next() * 5)] });
        line = from.line - 1 - Math.floor(next() * 2);
      }
      libraryUpdate(library, changes, 2);
      let changedOneAtATime = 0;
      TextDocument.update = (document, edits, version) => {
        changedOneAtATime++;
        return libraryUpdate(document, edits, version);
      };
      try {
        ours.update(changes, 2);
      } finally {
        TextDocument.update = libraryUpdate;
      }
      assert.equal(changedOneAtATime, 0, `round ${round}: ${changes.length} changes`);
      assertSame(ours, library, `round ${round}`);
    }
  });

  it('applies an edit of many places at once with carriage returns as the library does where one change is read after another\'s line ends', () => {
    const lines = Array.from({ length: 100 }, (_, i) => `line${i}`);
    for (const [start, changes] of [
      // A line feed after a lone \r joins them in one break: the next change at that very place is read on the line after it.
      ['x\ry\n' + lines.join('\r\n'), [{ line: 1, character: 0, text: '\n' }, { line: 1, character: 0, text: 'Z' }]],
      // A change past its line's end as the text was: a change before it on that line made the line longer.
      ['a\r\nline1\r\n' + lines.join('\r\n'), [{ line: 1, character: 5, text: 'ABCDEF' }, { line: 1, character: 8, text: 'Z' }]],
    ] as const) {
      const many = Array.from({ length: 88 }, (_, i) => ({ range: { start: { line: 100 - i, character: 1 }, end: { line: 100 - i, character: 2 } }, text: 'q' }));
      const tail = changes.map(({ line, character, text }) => ({ range: { start: { line, character }, end: { line, character } }, text }));
      const ours = new OpenDocument('file:///l.yaml', 'yaml', 1, start);
      const library = TextDocument.create('file:///l.yaml', 'yaml', 1, start);
      TextDocument.update(library, [...many, ...tail], 2);
      ours.update([...many, ...tail], 2);
      assertSame(ours, library, JSON.stringify(changes));
    }
  });

  it('keeps a text with carriage returns as the library does, before and after they appear', () => {
    const next = random(4);
    for (let round = 0; round < 60; round++) {
      const start = round % 2 ? 'a: 1\r\nb: 2\r\n' : 'a: 1\nb: 2\n';
      const ours = new OpenDocument('file:///r.yaml', 'yaml', 1, start);
      const library = TextDocument.create('file:///r.yaml', 'yaml', 1, start);
      for (let version = 2; version < 10; version++) {
        const changes = [randomChange(next, library, ['', 'z', '\r', '\n', '\r\n', 'q\r\nw'])];
        TextDocument.update(library, changes, version);
        ours.update(changes, version);
      }
      assertSame(ours, library, `round ${round}`);
    }
  });

  it('with carriage returns, reads a range of floats, NaN or reversed ends as it does without them (the library made NaN offsets and lost a line)', () => {
    const document = new OpenDocument('file:///crlf.yaml', 'yaml', 1, 'a\r\nb\r\nc\r\n');
    document.update([{ range: { start: { line: 1.5, character: NaN }, end: { line: 0.2, character: 1 } }, text: 'Z' }], 2);
    assert.equal(document.getText(), 'aZb\r\nc\r\n');
    assert.equal(document.lineCount, 3);
    assert.equal(document.offsetAt({ line: 1, character: 0 }), 5);
  });

  it('with carriage returns, reads a range past the last line as the end of the text, as it does without them (the library left holes in its line table and doubled a part of the text)', () => {
    for (const eol of ['\n', '\r\n']) {
      const document = new OpenDocument('file:///past.yaml', 'yaml', 1, `a: 1${eol}b: 2${eol}`);
      document.update([{ range: { start: { line: 7, character: 0 }, end: { line: 8, character: 0 } }, text: '# end\n' }], 2);
      document.update([{ range: { start: { line: 3, character: 0 }, end: { line: 3, character: 0 } }, text: 'c: 3\n' }], 3);
      assert.equal(document.getText(), `a: 1${eol}b: 2${eol}# end\nc: 3\n`, JSON.stringify(eol));
      assert.equal(document.lineCount, 5, JSON.stringify(eol));
      assert.deepEqual(document.positionAt(document.getText().length), { line: 4, character: 0 }, JSON.stringify(eol));
    }
  });

  it('logs its changes as offsets, which rebuild the text from an earlier revision', () => {
    const next = random(2);
    const ours = new OpenDocument('file:///l.yaml', 'yaml', 1, 'apiVersion: v1\nkind: Service\n');
    const library = TextDocument.create('file:///l.yaml', 'yaml', 1, ours.getText());
    const texts = new Map([[ours.revision, ours.getText()]]);
    for (let version = 2; version < 40; version++) {
      const changes = [randomChange(next, library, ['', 'k', '\n', 'x\r\ny'])];
      TextDocument.update(library, changes, version);
      ours.update(changes, version);
      texts.set(ours.revision, library.getText());
    }
    for (const [revision, text] of texts) {
      const replayed = ours.changesSince(revision)!.reduce((current, c) => current.slice(0, c.start) + c.text + current.slice(c.end), text);
      assert.equal(replayed, ours.getText(), `from revision ${revision}`);
    }
    ours.forgetChangesUpTo(20);
    assert.equal(ours.changesSince(10), undefined, 'changes forgotten are not given in part');
    const replayed = ours.changesSince(25)!.reduce((current, c) => current.slice(0, c.start) + c.text + current.slice(c.end), texts.get(25)!);
    assert.equal(replayed, ours.getText(), 'changes after what was forgotten are kept');
    assert.deepEqual(ours.changesSince(ours.revision), []);
    assert.equal(ours.changesSince(ours.revision + 1), undefined, 'a revision it has not reached');
  });

  it('starts its log again when its whole text is replaced', () => {
    const ours = new OpenDocument('file:///f.yaml', 'yaml', 1, 'a: 1\n');
    const before = ours.revision;
    ours.update([{ text: 'b: 2\n' }], 2);
    assert.equal(ours.changesSince(before), undefined);
    assert.deepEqual(ours.changesSince(ours.revision), []);
    assert.equal(ours.getText(), 'b: 2\n');
  });

  it('keeps a bounded log when nobody follows it: past 1,000 changes it starts again', () => {
    const ours = new OpenDocument('file:///b.yaml', 'yaml', 1, 'a: 1\n');
    for (let version = 2; version < 1_600; version++) ours.update([{ range: { start: { line: 0, character: 4 }, end: { line: 0, character: 4 } }, text: 'x' }], version);
    assert.equal(ours.changesSince(0), undefined);
    assert.deepEqual(ours.changesSince(ours.revision - 1), [{ start: 4, end: 4, text: 'x' }]);
    assert.equal(ours.getText(), `a: 1${'x'.repeat(1_598)}\n`);
  });
});
