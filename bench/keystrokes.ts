// Where the side-by-side benchmarks type: one character at a time at the end of one line, so every
// keystroke makes a text neither server has seen before (no cache can answer it from an earlier one).
import type { Range } from 'vscode-languageserver';
import { splitDocuments } from '../server/src/manifest/split';

export interface Keystrokes {
  /** What is being typed into, for the report. */
  where: string;
  /** The k-th keystroke (0-based) against the text as it is after the k before it; `text` is read only when needed. */
  edit(text: () => string, k: number): { range: Range; newText: string };
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

function typingAtEndOf(line: number, where: string): Keystrokes {
  // Each keystroke adds one character to the line: its length is read once, not from the whole text each time
  // (which would copy the whole text each time, and bring the benchmark's own collections into the times).
  let initialLength: number | undefined;
  return {
    where,
    edit(text, k) {
      initialLength ??= text().split('\n', line + 1)[line].length - k;
      const character = initialLength + k;
      return { range: { start: { line, character }, end: { line, character } }, newText: LETTERS[character % LETTERS.length] };
    },
  };
}

function lineAt(text: string, offset: number): number {
  let line = 0;
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) line++;
  return line;
}

/** Typing into the metadata.name of the Deployment nearest the middle of the file (its findings name it). */
export function intoDeploymentName(text: string): Keystrokes {
  const documents = splitDocuments(text).filter((d) => /^kind: Deployment\s*$/m.test(d.text) && /^ {2}name: \S/m.test(d.text));
  if (documents.length === 0) throw new Error('no Deployment with a metadata.name to type into');
  const middle = text.length / 2;
  const nearest = documents.reduce((best, d) => (Math.abs(d.offset - middle) < Math.abs(best.offset - middle) ? d : best));
  const at = nearest.offset + /^ {2}name: \S/m.exec(nearest.text)!.index;
  return typingAtEndOf(lineAt(text, at), 'the name of the Deployment nearest the middle');
}

/**
 * Typing into a plain scalar in the middle of the largest CustomResourceDefinition: a description, or
 * a `type: string` where it has none (argo-cd's ApplicationSet CRD, 23,000 lines, has no description).
 */
export function intoLargestCrd(text: string): Keystrokes | undefined {
  const crds = splitDocuments(text).filter((d) => /^kind: CustomResourceDefinition\s*$/m.test(d.text));
  if (crds.length === 0) return undefined;
  const largest = crds.reduce((best, d) => (d.text.length > best.text.length ? d : best));
  const descriptions = [...largest.text.matchAll(/^ +description: [A-Za-z][^:#'"\n]*$/gm)];
  const scalars = descriptions.length ? descriptions : [...largest.text.matchAll(/^ +type: string$/gm)];
  if (scalars.length === 0) return undefined;
  const chosen = scalars[Math.floor(scalars.length / 2)];
  const lines = largest.text.split('\n').length;
  return typingAtEndOf(lineAt(text, largest.offset + chosen.index!), `a ${descriptions.length ? 'description' : 'type: string'} inside the largest CRD (${lines} lines)`);
}

/** Where a lightbulb is asked in the YAML document holding `line`: its `replicas:` line, else its `kind:` line. */
export function lightbulbLine(text: string, line: number): number {
  let first = 0;
  for (const document of splitDocuments(text)) {
    // Its lines: as many as its line breaks, and one more for the last document when it has none at its end.
    const lines = lineAt(document.text, document.text.length) + (document.text.endsWith('\n') ? 0 : 1);
    if (line < first + lines) {
      const at = /^\s+replicas:/m.exec(document.text) ?? /^kind:/m.exec(document.text);
      return first + (at ? lineAt(document.text, at.index) : 0);
    }
    first += lines;
  }
  return line;
}
