import type { Path } from '../manifest/path';

/**
 * The YAML shape of a Helm template, read by indentation alone (a template is not YAML until rendered):
 * its keys and sequence items as a tree, with the lines that are nothing but template actions left out,
 * except those that print YAML (`toYaml … | nindent 8`, `include … | indent 4`), kept as opaque blocks
 * where they sit. Each node knows the `with`/`range` context that `.` stands for on its line.
 */
export interface SkeletonNode {
  kind: 'key' | 'item' | 'opaque';
  /** 0-based line in the template. */
  line: number;
  /** Column of the key, of the item's dash, or the indentation an opaque block prints at. */
  column: number;
  /** The key, unquoted; undefined for items, opaque blocks and templated keys (`{{ $key }}:`). */
  key?: string;
  /** Text after `key:` (or after `- ` for a scalar item), trimmed; '' when the value is a block below. */
  value: string;
  /** The values path `.` stands for on this line (inside `{{- with .Values.probes }}`), null when `.` is no values path. */
  dot: string[] | null;
  /** Inside a `range`: the line renders once per item, and an edit of it changes every one. */
  inLoop?: true;
  children: SkeletonNode[];
}

/** One document of a template (the text between its `---` lines). */
export interface Skeleton {
  root: SkeletonNode;
  /** The line of the top-level `kind:` key, when the document has one. */
  kindLine?: number;
  /** The top-level `kind:` when it is written literally. */
  kind?: string;
  /** Whether the document itself sits inside a `range` (its `kind:` does): it renders once per item. */
  repeated: boolean;
}

const ACTION = /\{\{-?\s*(.*?)\s*-?\}\}/g;
const ONLY_ACTIONS = /^\s*(\{\{.*?\}\}\s*)+$/;
const PRINTS_YAML = /\b(toYaml|include|template|tpl)\b/;
const INDENT_OF_OUTPUT = /\|\s*n?indent\s+(\d+)/;
const KEY_LINE = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"{][^:#]*?|\{\{.*?\}\}[^:]*?)\s*:(?:\s+(.*))?$/;
const BLOCK_SCALAR = /^[|>][-+0-9]*\s*(#.*)?$/;

export function unquote(key: string): string {
  if (key.startsWith('"')) {
    try {
      return JSON.parse(key);
    } catch {
      return key.slice(1, -1);
    }
  }
  return key.startsWith("'") ? key.slice(1, -1).replace(/''/g, "'") : key;
}

/** `.Values.a.b` (or `$.Values.a.b`) as ['a', 'b']; `.x` inside a values context as that context plus x. */
export function valuesReference(expression: string, dot: string[] | null): string[] | null {
  const direct = /^\$?\.Values((?:\.[A-Za-z_][\w-]*)*)$/.exec(expression);
  if (direct) return direct[1] ? direct[1].slice(1).split('.') : [];
  if (dot && expression === '.') return dot;
  const relative = /^((?:\.[A-Za-z_][\w-]*)+)$/.exec(expression);
  if (dot && relative && !/^\.(Values|Release|Chart|Capabilities|Template|Files)\b/.test(expression)) return [...dot, ...relative[1].slice(1).split('.')];
  return null;
}

/** What one `{{ … }}` does to the meaning of `.` for the lines after it. */
function contextChange(action: string, dot: string[] | null): { push?: string[] | null; pop?: boolean; loop?: boolean } {
  const word = /^(\w+)\b\s*(.*)$/.exec(action);
  if (!word) return {};
  const [, keyword, rest] = word;
  if (keyword === 'end') return { pop: true };
  if (keyword === 'with') return { push: valuesReference(rest.trim(), dot) };
  if (keyword === 'range') return { push: null, loop: true };
  if (keyword === 'define') return { push: null };
  if (keyword === 'if' || keyword === 'block') return { push: dot };
  return {};
}

/** A template's documents, each read as parseSkeleton reads a template of one. */
export function parseSkeletons(text: string): Skeleton[] {
  const newDocument = (): Skeleton => ({ root: { kind: 'key', line: -1, column: -1, value: '', dot: null, children: [] }, repeated: false });
  const documents: Skeleton[] = [newDocument()];
  let skeleton = documents[0];
  // Frames of the open nodes; an item's children sit at its content column.
  let stack: { node: SkeletonNode; childColumn: number }[] = [{ node: skeleton.root, childColumn: -1 }];
  // The meaning of `.` and whether a `range` holds each line: both go on across a document's `---`.
  const contexts: { dot: string[] | null; loop: boolean }[] = [{ dot: null, loop: false }];
  const dot = () => contexts[contexts.length - 1].dot;
  const inLoop = () => contexts.some((c) => c.loop);
  let blockScalarAbove: number | undefined;
  let openComment = false;
  const lines = text.split('\n');
  lines.forEach((raw, line) => {
    const textLine = raw.replace(/\r$/, '');
    const lineDot = dot();
    const lineInLoop = inLoop();
    // Context changes take effect after the line, so a `{{- with x }}` line is read in the outer context.
    for (const match of textLine.matchAll(ACTION)) {
      const change = contextChange(match[1], dot());
      if (change.pop) {
        if (contexts.length > 1) contexts.pop();
      } else if (change.push !== undefined) contexts.push({ dot: change.push, loop: !!change.loop });
    }
    if (openComment) {
      if (textLine.includes('*/')) openComment = false;
      return;
    }
    if (/\{\{-?\s*\/\*/.test(textLine) && !textLine.includes('*/')) {
      openComment = true;
      return;
    }
    const trimmed = textLine.trim();
    if (!trimmed || trimmed.startsWith('#')) return;
    const column = textLine.length - textLine.trimStart().length;
    if (blockScalarAbove !== undefined) {
      if (column > blockScalarAbove) return;
      blockScalarAbove = undefined;
    }
    if (/^---(\s|$)/.test(textLine)) {
      // The next document: its keys are its own (read as one, they were the first document's).
      if (skeleton.root.children.length > 0) documents.push((skeleton = newDocument()));
      stack = [{ node: skeleton.root, childColumn: -1 }];
      return;
    }
    if (ONLY_ACTIONS.test(textLine)) {
      const action = trimmed.replace(/^\{\{-?\s*/, '').replace(/\s*-?\}\}$/, '');
      if (!PRINTS_YAML.test(action)) return;
      const indent = INDENT_OF_OUTPUT.exec(action);
      const printsAt = indent ? Number(indent[1]) : column;
      while (stack.length > 1 && stack[stack.length - 1].node.column > printsAt) stack.pop();
      // At the column of an item it prints more items of that item's list, whose key may sit at that column too
      // (`env:` with its items at its own column), and at the column of a key with nothing under it yet, that key's
      // content: what it prints goes under the node below them. At a key's column, it prints more keys beside it.
      // (Popping every node at the column gave an `env:` list's block to the container, and a container's fix went into it.)
      const top = stack[stack.length - 1].node;
      const opensHere = top.kind === 'key' && top.value === '' && top.children.length === 0;
      if (stack.length > 1 && top.column === printsAt && !opensHere) stack.pop();
      const parent = stack[stack.length - 1].node;
      parent.children.push({ kind: 'opaque', line, column: printsAt, value: trimmed, dot: lineDot, ...(lineInLoop ? { inLoop: true as const } : {}), children: [] });
      return;
    }
    let content = trimmed;
    let at = column;
    if (content === '-' || content.startsWith('- ')) {
      while (stack.length > 1) {
        const top = stack[stack.length - 1].node;
        if (top.column > at || (top.column === at && top.kind === 'item')) stack.pop();
        else break;
      }
      if (stack[stack.length - 1].node.column === at && stack[stack.length - 1].node.value !== '') stack.pop();
      const rest = content.slice(1).trimStart();
      const contentColumn = at + (content.length - rest.length);
      const item: SkeletonNode = { kind: 'item', line, column: at, value: KEY_LINE.test(rest) ? '' : rest, dot: lineDot, ...(lineInLoop ? { inLoop: true as const } : {}), children: [] };
      stack[stack.length - 1].node.children.push(item);
      stack.push({ node: item, childColumn: contentColumn });
      if (BLOCK_SCALAR.test(rest)) blockScalarAbove = at;
      if (!rest || !KEY_LINE.test(rest)) return;
      content = rest;
      at = contentColumn;
    }
    const key = KEY_LINE.exec(content);
    if (!key) return;
    while (stack.length > 1) {
      const frame = stack[stack.length - 1];
      if (frame.node.kind === 'item' ? frame.childColumn > at : frame.node.column >= at) stack.pop();
      else break;
    }
    const value = (key[2] ?? '').trim();
    const written = key[1].trim();
    const node: SkeletonNode = { kind: 'key', line, column: at, key: written.includes('{{') ? undefined : unquote(written), value, dot: lineDot, ...(lineInLoop ? { inLoop: true as const } : {}), children: [] };
    stack[stack.length - 1].node.children.push(node);
    stack.push({ node, childColumn: at + 1 });
    if (stack.length === 2 && node.key === 'kind' && skeleton.kindLine === undefined) {
      skeleton.kindLine = line;
      skeleton.repeated = lineInLoop;
      if (!value.includes('{{')) skeleton.kind = unquote(value);
    }
    if (BLOCK_SCALAR.test(value)) blockScalarAbove = at;
  });
  return documents;
}

/**
 * The YAML shape of a template of one document; of its first, when it has several (parseSkeletons reads each).
 */
export function parseSkeleton(text: string): Skeleton {
  return parseSkeletons(text)[0];
}

/** How far a path was found in the template: every node along it, and the opaque block that prints the rest. */
export interface SkeletonMatch {
  nodes: SkeletonNode[];
  /** The path's steps the nodes cover. */
  depth: number;
  /** A `toYaml`/`include` block under the deepest node that prints what the template does not spell out. */
  opaque?: SkeletonNode;
}

/** The key of an item's `name:` child when it is written literally, to tell sequence items apart. */
function literalName(item: SkeletonNode): string | undefined {
  const name = item.children.find((c) => c.key === 'name');
  return name && !name.value.includes('{{') ? unquote(name.value) : undefined;
}

/**
 * Follows `path` down the skeleton. A sequence index is matched by the rendered item's `name` when the
 * template writes names literally, else by position among the template's items (conditional items may
 * shift it; the position is then a best guess, still inside the right list). A key the template writes in
 * several branches (`{{- if }} replicas: 3 {{- else }} replicas: 1`) is the one that wrote the rendered value,
 * where that tells them apart. `renderedAt(depth)` is the rendered value at the path's first `depth + 1` steps.
 */
export function matchPath(skeleton: Skeleton, path: Path, renderedAt: (depth: number) => unknown = () => undefined, printsValue: (node: SkeletonNode, value: unknown) => boolean = () => false): SkeletonMatch {
  const nodes: SkeletonNode[] = [];
  let current = skeleton.root;
  let depth = 0;
  for (const step of path) {
    let next: SkeletonNode | undefined;
    if (typeof step === 'number') {
      const items = current.children.filter((c) => c.kind === 'item');
      const item = renderedAt(depth) as { name?: unknown } | undefined;
      const name = typeof item?.name === 'string' ? item.name : undefined;
      next = (name !== undefined ? items.find((i) => literalName(i) === name) : undefined) ?? (items.length === 1 || step < items.length ? items[Math.min(step, items.length - 1)] : undefined);
    } else {
      const keys = current.children.filter((c) => c.kind === 'key' && c.key === step);
      next = keys.length > 1 ? branchThatRendered(keys, renderedAt(depth), printsValue) : keys[0];
    }
    if (!next) break;
    nodes.push(next);
    current = next;
    depth++;
  }
  const opaque = depth < path.length || (current.kind !== 'opaque' && current.value === '' && current.children.every((c) => c.kind === 'opaque'))
    ? current.children.find((c) => c.kind === 'opaque')
    : undefined;
  return { nodes, depth, opaque };
}

/**
 * Of one key written in several branches, the one that rendered `value`: the branch writing it literally, else the
 * only one printing it with an action, else the only one whose action prints that value (`printsValue`: a values key
 * holding it), else the first.
 */
function branchThatRendered(keys: SkeletonNode[], value: unknown, printsValue: (node: SkeletonNode, value: unknown) => boolean): SkeletonNode {
  if (value === null || typeof value === 'object') return keys[0];
  const literal = keys.find((k) => {
    const scalar = literalScalar(k.value);
    return scalar !== undefined && unquote(scalar) === String(value);
  });
  const printed = keys.filter((k) => k.value.includes('{{'));
  const printing = printed.filter((k) => printsValue(k, value));
  return literal ?? (printed.length === 1 ? printed[0] : printing.length === 1 ? printing[0] : keys[0]);
}

/**
 * The scalar a template line writes literally after its key, without a comment after it (`1` of `1 # for now`);
 * undefined when the value is not one literal scalar (an action, a flow collection, a block, an alias or tag).
 */
export function literalScalar(value: string): string | undefined {
  if (value === '' || value.includes('{{') || /^[[{|>&*!]/.test(value)) return undefined;
  const pattern = value[0] === '"' ? /^"(?:[^"\\]|\\.)*"/ : value[0] === "'" ? /^'(?:[^']|'')*'/ : /^.*?(?=\s+#|$)/;
  const scalar = pattern.exec(value)?.[0];
  const rest = scalar === undefined ? '' : value.slice(scalar.length);
  return scalar && (rest === '' || /^\s+#/.test(rest)) ? scalar : undefined;
}

/** The single action a value is made of (`{{ .Values.x | quote }}`, `"{{ .Values.x }}"`, a comment after either), else undefined. */
export function soleAction(value: string): string | undefined {
  // A comment after the action is YAML's, not the action's (`{{ .Values.replicaCount }} # the HPA owns it`).
  const bare = value.trim().replace(/(\}\}["']?)\s+#(?!.*\}\}).*$/, '$1');
  const unquoted = /^(["'])(.*)\1$/.exec(bare)?.[2] ?? bare;
  const match = /^\{\{-?\s*(.*?)\s*-?\}\}$/.exec(unquoted);
  if (!match || match[1].includes('}}') || match[1].includes('{{')) return undefined;
  return match[1];
}

/** Functions through which a value still is the values key's own (`| default 2`, `quote`, `int`, `toYaml | nindent 8`). */
const TRANSPARENT = new Set(['default', 'quote', 'squote', 'int', 'int64', 'float64', 'toString', 'toYaml', 'nindent', 'indent', 'trim']);

/**
 * The values key an action prints, when it prints exactly one and nothing else:
 * `.Values.replicaCount`, `.Values.port | default 9898`, `default 9898 .Values.port`, `quote .Values.x`,
 * `toYaml .Values.resources | nindent 12`, and `.`/`.field` inside `with .Values.…`.
 */
export function valuesKeyOf(action: string, dot: string[] | null): string[] | undefined {
  let found: string[] | undefined;
  for (const stage of action.split('|')) {
    const words: string[] = stage.trim().match(/"(?:[^"\\]|\\.)*"|'[^']*'|\(|\)|[^\s()]+/g) ?? [];
    const [first, ...args] = words;
    if (first === undefined) continue;
    const isFunction = /^[a-z]\w*$/i.test(first);
    if (isFunction && !TRANSPARENT.has(first)) return undefined;
    for (const word of isFunction ? args : words) {
      if (word === '(' || word === ')' || /^["'\d-]/.test(word) || word === 'true' || word === 'false') continue;
      const reference = valuesReference(word, dot);
      if (!reference || found) return undefined;
      found = reference;
    }
  }
  return found && found.length ? found : undefined;
}

/** `{{- if … }}` on the first line and `{{- end }}` on the last: the workload renders only under that condition (`next`: the line after it). */
export function wholeFileCondition(lines: string[], openers: readonly string[] = ['if']): { open: string; close: string; next: string } | undefined {
  const content = lines.filter((l) => l.trim() && !/^\s*\{\{-?\s*\/\*.*\*\/\s*-?\}\}\s*$/.test(l));
  const first = content[0]?.trim();
  const last = content[content.length - 1]?.trim();
  const opened = /^\{\{-?\s*(\w+)\s.*\}\}$/.exec(first ?? '')?.[1];
  if (!first || !last || !opened || !openers.includes(opened) || !/^\{\{-?\s*end\s*-?\}\}$/.test(last)) return undefined;
  // The `if` must close on the last line, not earlier: count the blocks it holds.
  let depth = 0;
  for (const [index, line] of content.entries()) {
    for (const action of line.matchAll(/\{\{-?\s*(\w+)/g)) {
      if (BLOCKS.includes(action[1])) depth++;
      else if (action[1] === 'end') depth--;
    }
    if (depth === 0 && index < content.length - 1) return undefined;
  }
  return { open: first, close: last, next: content[1]?.trim() ?? '' };
}

/**
 * The condition of an `{{- if … }}` wrapping the whole template, or of a `{{- with … }}`, which renders under the same
 * truth; one action alone on its line (a comment or another action after it is no part of it).
 */
export function wholeFileIf(text: string): string | undefined {
  const { open = '', next = '' } = wholeFileCondition(text.split('\n').map((l) => l.replace(/\r$/, '')), ['if', 'with']) ?? {};
  // `{{- with .Values.pdb }}{{- if .enabled }}`: the map's truth is not the file's.
  if (/^\{\{-?\s*with\s/.test(open) && /^\{\{-?\s*(if|with)\s/.test(next)) return undefined;
  const condition = /^\{\{-?\s*(?:if|with)\s+(.+?)\s*-?\}\}$/.exec(open)?.[1];
  return condition && !/\{\{|\}\}/.test(condition) ? condition : undefined;
}

/** The actions that open a block its `end` closes. */
const BLOCKS = ['if', 'with', 'range', 'define', 'block'];

/** The blocks (`if`, `with`, `range`, `define`, `block`) open at `offset` of a template, outermost first. */
export function blocksOpenAt(text: string, offset: number): string[] {
  const open: string[] = [];
  for (const action of text.slice(0, offset).matchAll(/\{\{-?\s*(\w+)/g)) {
    if (BLOCKS.includes(action[1])) open.push(action[1]);
    else if (action[1] === 'end') open.pop();
  }
  return open;
}
