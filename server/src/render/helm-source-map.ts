import { dirname, join } from 'node:path';
import { shownWithin } from '../files/within';
import { literalPattern } from '../literal-pattern';
import { yamlLines, yamlScalar } from '../fixes/yaml-text';
import { applyEdits, composeRounds, type EditRound, type TextEdit } from '../fixes/edit';
import type { Path } from '../manifest/path';
import { nest } from '../fixes/yaml-edit';
import { lineStartsIn } from '../manifest/text';
import { valueAt } from '../manifest/workload';
import { editValuesKey, setsKey, valuesKeyLine, valuesKeyValue, valuesSourceFor, type ValuesSource } from './helm-values';
import { pdbTemplate } from './helm-pdb-template';
import { namedFew } from './also-changes';
import { literalScalar, matchPath, parseSkeletons, soleAction, unquote, valuesKeyOf, wholeFileIf, blocksOpenAt, type Skeleton, type SkeletonMatch, type SkeletonNode } from './template-skeleton';
import type { FieldChange, SourceEdits, SourceLocation, SourceMapper } from './types';

/** One rendered document: the template that wrote it (from Helm's `# Source:` line) and what it rendered to. */
export interface HelmDocument {
  /** Absolute path of the template, undefined when Helm named none or it could not be read. */
  template?: string;
  /** The template as Helm names it (`parent/charts/sub/templates/x.yaml`): one template of a subchart vendored once and aliased twice renders under two. */
  source?: string;
  /** The subcharts from the chart to the template's, outermost first. */
  subcharts?: Subchart[];
  /** Where a document with no template to show is shown: a packed subchart's entry in its parent's dependencies. */
  placedAt?: SourceLocation;
  object: unknown;
}

/** A subchart on the way from the chart to a template: its folder, and the key its values sit under in its parent's. */
export interface Subchart {
  dir: string;
  key: string;
}

export interface HelmMapInput {
  chartDir: string;
  release: string;
  documents: HelmDocument[];
  /** Template texts as rendered, by absolute path. */
  templates: Map<string, string>;
  /** Values files in the order Helm merged them (later wins), for the chart a document's template belongs to. */
  valuesFor(document: HelmDocument): ValuesSource[];
  /** Keys given with --set: the files do not decide them. */
  setKeys: string[][];
}

/** Where a field's value comes from in the values files, and the template place that prints it. */
interface Origin {
  /** The key as the template reads it (`.Values.replicaCount`). */
  key: string[];
  source: ValuesSource;
  /** The key as the values file writes it (`cart.replicaCount` in a parent's file). */
  inFile: string[];
  /** The key from the top chart's values, as --set names it. */
  fromTop: string[];
}

export class HelmSourceMapper implements SourceMapper {
  private readonly skeletons = new Map<string, Skeleton[]>();
  private printed?: Printers;

  constructor(private readonly input: HelmMapInput) {}

  locate(documentIndex: number, path: Path): SourceLocation[] {
    const document = this.input.documents[documentIndex];
    const template = document?.template;
    if (!template) return [document?.placedAt ?? { path: join(this.input.chartDir, 'Chart.yaml'), line: 0 }];
    const existing = deepestExisting(document.object, path);
    const found = this.match(documentIndex, existing);
    const locations: SourceLocation[] = [{ path: template, line: templateLine(found.match, existing.length, found.skeleton) }];
    const origin = this.originOf(documentIndex, existing);
    if (origin && !this.setOnCommandLine(origin)) locations.push({ path: origin.source.path, line: valuesKeyLine(origin.source, origin.key) ?? 0 });
    return locations;
  }

  origin(documentIndex: number, path: Path): string | undefined {
    const origin = this.originOf(documentIndex, deepestExisting(this.input.documents[documentIndex]?.object, path));
    if (!origin) return undefined;
    return this.setOnCommandLine(origin) ? `values key ${origin.fromTop.join('.')}, set with --set` : `values key ${origin.inFile.join('.')} in ${this.relative(origin.source.path)}`;
  }

  translateFix(documentIndex: number, changes: FieldChange[], refuse: (reason: string) => void = () => undefined): SourceEdits | undefined {
    const no = (reason: string) => {
      refuse(reason);
      return undefined;
    };
    const edits = new Map<string, { edits: TextEdit[]; against: string }>();
    const creates: { path: string; text: string }[] = [];
    const titles: string[] = [];
    const alsoChanges = new Set<number>();
    const add = (path: string, against: string, more: TextEdit[]) => edits.set(path, { edits: [...(edits.get(path)?.edits ?? []), ...more], against });
    const valuesRounds = new Map<string, EditRound[]>();
    for (const change of changes) {
      // A value that names this render's release (a selector on `release-podinfo`) is right for this release alone:
      // written into a values file or a template, it would select nothing under another.
      if (change.kind === 'set' && namesRelease(change.value, this.input.release)) return no(`the value names this release (${this.input.release}): written into the chart, it would match nothing under another release name`);
      if (change.kind === 'add-resource') {
        // Rendered under each alias, a budget written for one would select the pods of every other as well.
        if (this.rendersUnderOtherNames(documentIndex)) return no(`${this.relativeTemplate(documentIndex)} renders under every alias of its subchart: a new template beside it would render under each of them`);
        const created = this.newTemplate(documentIndex, change.object);
        if (!created) {
          return no(
            this.skeletonOf(documentIndex)?.repeated
              ? `a \`range\` in ${this.relativeTemplate(documentIndex)} renders the workload once per item: one new template would be none of theirs`
              : `no template for it could be written beside ${this.relativeTemplate(documentIndex)} (a file of its name exists, or the workload's template names it in a way a new one cannot follow)`,
          );
        }
        creates.push(created);
        titles.push(`write ${this.relative(created.path)}`);
        continue;
      }
      const origin = this.originOf(documentIndex, change.path);
      if (origin) {
        if (this.setOnCommandLine(origin)) return no(`values key ${origin.fromTop.join('.')} is set with --set: change it where --set is given`);
        if (change.kind === 'remove' && this.printedWhole(documentIndex, change.path) && !this.guardedByItsKey(documentIndex, change.path, origin.key)) {
          // Without its values key the template would still print the field, empty (`replicas:`, a null a schema
          // check refuses): the field's line goes; the key stays for whatever else reads it.
          // Under an autoscaler that renders only when a condition holds, the line is written only when it does not
          // (helm create's `{{- if not .Values.autoscaling.enabled }}`): without the autoscaler the count is still wanted.
          const unless = change.path.join('.') === 'spec.replicas' ? this.autoscalerCondition(documentIndex) : undefined;
          const removal = this.fieldLineRemoval(documentIndex, change.path, unless);
          if (typeof removal === 'string') return no(removal);
          add(removal.path, removal.against, removal.edits);
          const field = String(change.path[change.path.length - 1]);
          titles.push(unless ? `write ${field} only if not ${unless} in ${this.relative(removal.path)}` : `remove ${field} from ${this.relative(removal.path)}`);
          continue;
        }
        const source = change.kind === 'set' ? this.overridingSource(documentIndex, origin) : origin.source;
        // Taken out of the file that won, the key would render with the value a file below it gives: it is set to
        // null there, which Helm takes for no value where a chart's own values.yaml holds the key (elsewhere it
        // renders the null, `minAvailable: null`, which a schema refuses).
        const chain = this.valuesChain(documentIndex, origin.key);
        const below = change.kind === 'remove' ? chain.find((other) => other.path !== source.path && setsKey(other, origin.key)) : undefined;
        if (below && !chain.some((other) => this.isChartDefaults(documentIndex, other) && setsKey(other, origin.key))) {
          return no(`values key ${origin.inFile.join('.')} is set in ${this.relative(below.path)} too: taken out of ${this.relative(source.path)}, it would render with that value`);
        }
        const value = change.kind === 'set' ? change.value : below ? null : undefined;
        // Worked out on the file as the fix's earlier changes left it: a key set below one taken out (a budget's
        // maximum for its minimum) was inserted inside the line removed, two edits over one place.
        const rounds = valuesRounds.get(source.path) ?? [];
        const current = rounds.length ? applyEdits(rounds[rounds.length - 1].text, rounds[rounds.length - 1].edits) : source.text;
        const valueEdits = editValuesKey({ ...source, text: current }, origin.key, value);
        if (!valueEdits) return no(`values key ${[...source.prefix, ...origin.key].join('.')} in ${this.relative(source.path)} is written in a form this edit does not change`);
        valuesRounds.set(source.path, [...rounds, { text: current, edits: valueEdits }]);
        const alsoHere = this.otherLinePrinting(documentIndex, change.path, origin.fromTop);
        if (alsoHere) return no(`${this.relativeTemplate(documentIndex)} prints values key ${alsoHere.key.join('.')} on line ${alsoHere.node.line + 1} too: ${origin.inFile.join('.')} set for this field would be that one's as well`);
        for (const other of this.othersPrinting(documentIndex, origin.fromTop)) alsoChanges.add(other);
        const inFile = [...source.prefix, ...origin.key].join('.');
        titles.push(value !== undefined ? `set ${inFile}: ${brief(value)} in ${this.relative(source.path)}` : `remove ${inFile} from ${this.relative(source.path)}`);
        continue;
      }
      if (change.kind !== 'set') return no(`${this.relativeTemplate(documentIndex)} writes ${String(change.path[change.path.length - 1])} from no values key this can trace (a line of one action does), and no other template line is removed`);
      // A value copied from a field the values decide (a memory request equal to a limit from values.yaml): written
      // literally it would part from that field under other values (a request above its limit: no valid pod).
      if (this.copiesValuesField(documentIndex, change.path, change.value)) return no('the value copies a field the values decide: written literally, it would part from that field under other values');
      const literal = this.templateEdit(documentIndex, change.path, change.value);
      if (typeof literal === 'string') return no(literal);
      add(literal.path, literal.against, literal.edits);
      titles.push(`set ${String(change.path[change.path.length - 1])}: ${brief(change.value)} in ${this.relative(literal.path)}`);
    }
    for (const [path, rounds] of valuesRounds) add(path, rounds[0].text, composeRounds(rounds));
    if (edits.size === 0 && creates.length === 0) return no('it changes nothing in the chart\'s files');
    return { edits: [...edits].map(([path, e]) => ({ path, ...e })), creates, title: titles.join(', '), ...(alsoChanges.size ? { alsoChanges: namedFew([...alsoChanges], (i) => this.input.documents[i].object, 'values key') } : {}) };
  }

  /**
   * The other rendered resources that print the values key (`fromTop`, as --set names it) or a key inside it: one
   * `replicaCount` for a web server and its Redis, one `global.replicas` for an app and its PostgreSQL subchart.
   */
  private othersPrinting(documentIndex: number, fromTop: readonly string[]): number[] {
    const { under, exactly } = this.printers();
    const found = new Set(under.get(fromTop.join('\0')) ?? []);
    for (let n = 1; n < fromTop.length; n++) for (const index of exactly.get(fromTop.slice(0, n).join('\0')) ?? []) found.add(index);
    found.delete(documentIndex);
    return [...found].sort((a, b) => a - b);
  }

  /**
   * Another line of the document's template that prints the values key (`fromTop`), a key inside it or one it is
   * inside, than the one that prints the field at `path`: a probe's settings printed for liveness and readiness alike
   * (`{{- toYaml .Values.probe | nindent 12 }}` under both) made a fix of liveness slow readiness down too.
   */
  private otherLinePrinting(documentIndex: number, path: Path, fromTop: readonly string[]): PrintingLine | undefined {
    const { match } = this.match(documentIndex, path);
    const own = match?.opaque ?? match?.nodes[match.nodes.length - 1];
    const lines = this.printers().lines.get(documentIndex) ?? [];
    const ownTrail = lines.find((printer) => printer.node === own)?.trail;
    const related = (key: readonly string[]) => key.slice(0, fromTop.length).join('\0') === fromTop.slice(0, key.length).join('\0');
    // A line at the same place is the other branch of an `if` writing the same field, not another field.
    return lines.find((printer) => printer.node !== own && printer.trail !== ownTrail && related(printer.key));
  }

  /**
   * Which rendered documents print each values key (as --set names it): `exactly` by the key, `under` by the key
   * and each key above it. Made once: asked for every finding, a scan of every document each time was cubic (a
   * `range` of 1,500 Deployments: 6.8 s to 32 s).
   */
  private printers(): Printers {
    if (this.printed) return this.printed;
    const under = new Map<string, number[]>();
    const exactly = new Map<string, number[]>();
    const lines = new Map<number, PrintingLine[]>();
    const add = (map: Map<string, number[]>, key: string, index: number) => {
      const list = map.get(key);
      if (!list) map.set(key, [index]);
      else if (list[list.length - 1] !== index) list.push(index);
    };
    this.input.documents.forEach((document, index) => {
      if (!document.template) return;
      const skeleton = this.skeletonOf(index);
      const subcharts = (document.subcharts ?? []).map((subchart) => subchart.key);
      lines.set(index, []);
      // `at`: the fields the line sits at while only keys lead there. A field the rendered document lacks is on a line
      // that did not render (a branch of an `if` not taken: `replicas:` under `if not .Values.hpa.enabled`), and
      // prints nothing of this render, unless the key it prints is unset: then what holds the line back may be that
      // key itself (`{{- if .Values.replicaCount }}`), which a fix setting it would print.
      const unset = (key: string[]) => {
        const source = valuesSourceFor(this.valuesChain(index, key), key);
        return !source || !valuesKeyValue(source, key);
      };
      // `trail`: the keys to the line and the place of each item on the way, whatever rendered (two branches of an
      // `if` writing one field have the same trail).
      const walk = (node: SkeletonNode, at: string[] | undefined, trail: string) => {
        const here = at && node.kind === 'key' && node.key !== undefined ? [...at, node.key] : node.kind === 'opaque' ? at : undefined;
        const key = printedKey(node);
        if (key && !(here && valueAt(document.object, here) === undefined && !unset(key))) {
          const top = key[0] === 'global' ? key : [...subcharts, ...key];
          add(exactly, top.join('\0'), index);
          for (let n = 1; n <= top.length; n++) add(under, top.slice(0, n).join('\0'), index);
          lines.get(index)!.push({ key: top, node, trail });
        }
        walkChildren(node, here, trail);
      };
      const walkChildren = (node: SkeletonNode, at: string[] | undefined, trail: string) => {
        let item = 0;
        for (const child of node.children) walk(child, at, child.kind === 'item' ? `${trail}\0-${item++}` : child.kind === 'key' && child.key !== undefined ? `${trail}\0${child.key}` : trail);
      };
      if (skeleton) walkChildren(skeleton.root, [], '');
    });
    return (this.printed = { under, exactly, lines });
  }

  /**
   * Where a fix sets a values key: where the render took it from, but for a key a vendored subchart's own values.yaml
   * sets, the top chart's values.yaml under the subchart's key, which overrides it (an edit of the vendored chart is
   * lost to `helm dependency update`).
   */
  private overridingSource(documentIndex: number, origin: Origin): ValuesSource {
    const document = this.input.documents[documentIndex];
    const depth = (document.subcharts ?? []).length;
    const own = this.input.valuesFor(document).filter((source) => source.prefix.length === depth);
    // A global is at the top of a values file: the top chart's own, unless one of its files set it already.
    if (origin.key[0] === 'global') return own.some((source) => source.path === origin.source.path) || !own.length ? origin.source : { ...own[0], prefix: [] };
    if (origin.source.prefix.length >= depth) return origin.source;
    return own[0] ?? origin.source;
  }

  /**
   * Whether `value` is the rendered text of another field of the document that a values key decides (text only: a
   * number such as 1 or 2 matches fields by chance).
   */
  private copiesValuesField(documentIndex: number, path: Path, value: unknown): boolean {
    if (typeof value !== 'string') return false;
    const same: Path[] = [];
    const walk = (node: unknown, at: Path) => {
      if (node === value && at.join('.') !== path.join('.')) same.push(at);
      if (Array.isArray(node)) node.forEach((item, i) => walk(item, [...at, i]));
      else if (node && typeof node === 'object') for (const [key, child] of Object.entries(node)) walk(child, [...at, key]);
    };
    walk(this.input.documents[documentIndex]?.object, []);
    return same.some((other) => this.originOf(documentIndex, other) !== undefined);
  }

  /** Whether a --set assignment decides the key, so that no values file does. */
  private setOnCommandLine(origin: Origin): boolean {
    return this.input.setKeys.some((key) => overlaps(key, origin.fromTop));
  }

  private relative(path: string): string {
    return shownWithin(this.input.chartDir, path);
  }

  private skeletonsOf(template: string): Skeleton[] | undefined {
    let skeletons = this.skeletons.get(template);
    const text = this.input.templates.get(template);
    if (!skeletons && text !== undefined) this.skeletons.set(template, (skeletons = parseSkeletons(text).filter((s) => s.root.children.length > 0)));
    return skeletons;
  }

  /**
   * The document of its template a rendered document comes from. Several in one template are told apart by their
   * order when none repeats in a `range` and each rendered once, else by their kind and literal name; none when
   * that leaves more than one (read as one, every document's findings and fixes went to the first's lines).
   * helm prints a template's documents sorted by kind (a Service before the Deployment written above it), keeping
   * the order of those of one kind: the order told apart is the one among documents of the same kind.
   */
  private skeletonOf(documentIndex: number): Skeleton | undefined {
    const { documents } = this.input;
    const template = documents[documentIndex]?.template;
    const skeletons = template ? this.skeletonsOf(template) : undefined;
    if (!skeletons || skeletons.length <= 1) return skeletons?.[0];
    const source = documents[documentIndex].source;
    const kindOf = (i: number) => (documents[i].object as { kind?: unknown } | undefined)?.kind;
    const kind = kindOf(documentIndex);
    const siblings = documents.flatMap((d, i) => (d.template === template && d.source === source ? [i] : []));
    if (!skeletons.some((s) => s.repeated)) {
      const ofKind = skeletons.every((s) => s.kind !== undefined) ? skeletons.filter((s) => s.kind === kind) : siblings.every((i) => kindOf(i) === kind) ? skeletons : [];
      const siblingsOfKind = siblings.filter((i) => kindOf(i) === kind);
      if (ofKind.length > 0 && siblingsOfKind.length === ofKind.length) return ofKind[siblingsOfKind.indexOf(documentIndex)];
    }
    const object = documents[documentIndex].object as { kind?: unknown; metadata?: { name?: unknown } } | undefined;
    const byKind = skeletons.filter((s) => s.kind === undefined || s.kind === object?.kind);
    if (byKind.length === 1) return byKind[0];
    const byName = byKind.filter((s) => literalName(s) === object?.metadata?.name);
    return byName.length === 1 ? byName[0] : undefined;
  }

  private match(documentIndex: number, path: Path): { match?: SkeletonMatch; skeleton?: Skeleton } {
    const document = this.input.documents[documentIndex];
    const skeleton = this.skeletonOf(documentIndex);
    if (!skeleton) return {};
    // A branch printing a values key prints what the values files in use give that key.
    const printsValue = (node: SkeletonNode, value: unknown) => {
      const key = printedKey(node);
      const source = key ? valuesSourceFor(this.input.valuesFor(document), key) : undefined;
      return !!source && String(valuesKeyValue(source, key!)) === String(value);
    };
    return { match: matchPath(skeleton, path, (depth) => valueAt(document.object, path.slice(0, depth + 1)), printsValue), skeleton };
  }

  /** The values key a field comes from: printed by a `.Values` action on its own line, or inside a `toYaml` of a values map. */
  private originOf(documentIndex: number, path: Path): Origin | undefined {
    const template = this.input.documents[documentIndex]?.template;
    const { match } = this.match(documentIndex, path);
    if (!template || !match) return undefined;
    let key: string[] | undefined;
    const last = match.nodes[match.nodes.length - 1];
    if (match.depth === path.length && last && !match.opaque) {
      key = printedKey(last);
    } else if (match.opaque) {
      const base = printedKey(match.opaque);
      const rest = path.slice(match.depth);
      if (base && rest.every((step) => typeof step === 'string')) key = [...base, ...(rest as string[])];
    }
    if (!key) return undefined;
    const document = this.input.documents[documentIndex];
    const global = key[0] === 'global';
    const source = valuesSourceFor(this.valuesChain(documentIndex, key), key);
    const subcharts = global ? [] : (document.subcharts ?? []).map((subchart) => subchart.key);
    return source ? { key, source, inFile: [...source.prefix, ...key], fromTop: [...subcharts, ...key] } : undefined;
  }

  /** Whether a values file is a chart's own values.yaml (the document's chart's or a parent's), not one given to the install. */
  private isChartDefaults(documentIndex: number, source: ValuesSource): boolean {
    const charts = [this.input.chartDir, ...(this.input.documents[documentIndex]?.subcharts ?? []).map((subchart) => subchart.dir)];
    return charts.some((chart) => source.path === join(chart, 'values.yaml'));
  }

  /** The values files the document's chart reads `key` from, the winning one last. */
  private valuesChain(documentIndex: number, key: readonly string[]): ValuesSource[] {
    // `global` is one map every chart shares, the top chart's winning: at the top of each values file, not under a subchart's key.
    const global = key[0] === 'global';
    return this.input.valuesFor(this.input.documents[documentIndex]).map((source) => (global ? { ...source, prefix: [] } : source));
  }

  /** Whether the field's whole value is one action of its template line (`replicas: {{ .Values.replicaCount }}`), not part of a `toYaml` block. */
  private printedWhole(documentIndex: number, path: Path): boolean {
    const { match } = this.match(documentIndex, path);
    return !!match && !match.opaque && match.depth === path.length;
  }

  /** The condition the template of the autoscaler scaling the document renders under (`.Values.autoscaling.enabled`), if one wraps it whole. */
  private autoscalerCondition(documentIndex: number): string | undefined {
    const workload = this.input.documents[documentIndex]?.object as { kind?: unknown; metadata?: { name?: unknown } } | undefined;
    const hpa = this.input.documents.find((d) => {
      const object = d.object as { kind?: unknown; spec?: { scaleTargetRef?: { kind?: unknown; name?: unknown } } } | undefined;
      const ref = object?.spec?.scaleTargetRef;
      return object?.kind === 'HorizontalPodAutoscaler' && ref?.kind === workload?.kind && ref?.name === workload?.metadata?.name;
    });
    const text = hpa?.template ? this.input.templates.get(hpa.template) : undefined;
    return text === undefined ? undefined : wholeFileIf(text);
  }

  /**
   * The template line of a field that holds nothing else, taken out, or kept only when `unless` does not hold;
   * else why not (a line a `range` or an alias repeats, among others).
   */
  private fieldLineRemoval(documentIndex: number, path: Path, unless: string | undefined): TemplateEdit | string {
    const editable = this.editableMatch(documentIndex, path);
    if (typeof editable === 'string') return editable;
    const { template, text, match } = editable;
    const node = match.nodes[match.nodes.length - 1];
    if (node.kind !== 'key' || node.children.length > 0) return `${this.relative(template)} writes it on more than one line`;
    const { start, end, text: line } = lineOf(text, lineStartsIn(text), node.line);
    if (!FIELD_LINE.test(line)) return `${this.relative(template)} writes it on a line that holds more than its key and one action`;
    if (unless === undefined) return { path: template, against: text, edits: [{ start, end, text: '' }] };
    // The autoscaler's condition reads the chart's root: inside a `with` or `range` the root is `$`, not `.`; inside a
    // named template neither is sure to be.
    const blocks = blocksOpenAt(text, start);
    if (blocks.includes('define') || blocks.includes('block')) return `${this.relative(template)} writes it inside a \`define\` or \`block\`, where the condition to keep it could not name the chart's values`;
    const condition = blocks.includes('with') || blocks.includes('range') ? unless.replace(/(^|[\s(])\.(?=[A-Z])/g, '$1$.') : unless;
    const indent = /^[ \t]*/.exec(line)![0];
    const newline = lineBreakOf(line);
    const kept = /\n$/.test(line) ? line : line + newline;
    return { path: template, against: text, edits: [{ start, end, text: `${indent}{{- if not (${condition}) }}${newline}${kept}${indent}{{- end }}${newline}` }] };
  }

  /**
   * Whether the field's line renders only when its own values key is set (`{{- if .Values.pdb.minAvailable }}` on the
   * line above, `{{- end }}` below): taking the key out leaves nothing printed, where taking the line out made the key
   * dead for every install that sets it.
   */
  private guardedByItsKey(documentIndex: number, path: Path, key: readonly string[]): boolean {
    const editable = this.editableMatch(documentIndex, path);
    if (typeof editable === 'string') return false;
    const lines = editable.text.split('\n');
    const node = editable.match.nodes[editable.match.nodes.length - 1];
    const condition = /^(?:if|with)\s+(.+)$/.exec(soleAction(lines[node.line - 1] ?? '') ?? '')?.[1];
    return condition !== undefined && soleAction(lines[node.line + 1] ?? '') === 'end' && valuesKeyOf(condition, node.dot)?.join('\0') === key.join('\0');
  }

  private relativeTemplate(documentIndex: number): string {
    const template = this.input.documents[documentIndex]?.template;
    return template ? this.relative(template) : 'its template';
  }

  /**
   * The template and the match of a field an edit of the template may change, else why not: a line a `range` renders
   * once per item (written literally, it would be every item's), one of a subchart vendored once and aliased twice
   * (every alias's), a template not read.
   */
  private editableMatch(documentIndex: number, path: Path): { template: string; text: string; match: SkeletonMatch } | string {
    const template = this.input.documents[documentIndex]?.template;
    const text = template ? this.input.templates.get(template) : undefined;
    const { match } = this.match(documentIndex, path);
    const shown = this.relativeTemplate(documentIndex);
    if (!template || text === undefined || !match) return `${shown} could not be read line by line`;
    if (match.nodes.some((n) => n.inLoop)) return `a \`range\` in ${shown} writes it once per item: an edit there would be every item's`;
    if (this.rendersUnderOtherNames(documentIndex)) return `${shown} renders under every alias of its subchart: an edit there would be every alias's`;
    return { template, text, match };
  }

  /** A literal field of the template set in place, or a missing one added below the deepest key the template writes. */
  private templateEdit(documentIndex: number, path: Path, value: unknown): TemplateEdit | string {
    const editable = this.editableMatch(documentIndex, path);
    if (typeof editable === 'string') return editable;
    const { template, text, match } = editable;
    const computed = `${this.relative(template)} writes it with an expression or a helper, not a literal value to change`;
    if (match.opaque || match.depth === 0) return computed;
    const node = match.nodes[match.nodes.length - 1];
    const lineStarts = lineStartsIn(text);
    if (match.depth === path.length) {
      const scalar = node.kind === 'key' ? literalScalar(node.value) : undefined;
      if (scalar === undefined) return computed;
      if (value !== null && typeof value === 'object') return `the fix writes a mapping or a list where ${this.relative(template)} writes one value`;
      const line = lineOf(text, lineStarts, node.line);
      const at = line.text.indexOf(':', node.column) + 1;
      const start = line.start + at + (line.text.slice(at).length - line.text.slice(at).trimStart().length);
      // A comment after the value stays.
      return { path: template, against: text, edits: [{ start, end: start + scalar.length, text: yamlScalar(value) }] };
    }
    const rest = path.slice(match.depth);
    if (node.kind === 'opaque') return computed;
    if (node.kind === 'key' && node.value !== '') return `${this.relative(template)} writes ${String(path[match.depth - 1])} on one line (\`${node.value.trim()}\`), below which no key can be added`;
    if (rest.some((step) => typeof step !== 'string')) return `the fix adds an item to a list ${this.relative(template)} does not write`;
    const childColumn = node.kind === 'item' ? itemContentColumn(text, lineStarts, node) : (node.children.find((c) => c.kind !== 'opaque')?.column ?? node.column + 2);
    const nested = nest(rest as string[], value);
    // In the line breaks of the line it goes below, as the guard above does: a CRLF template got lines in LF alone.
    const below = lineOf(text, lineStarts, node.line);
    const newline = lineBreakOf(below.text);
    const body = yamlLines(nested, childColumn).join(newline);
    const insertAt = below.end;
    const lead = insertAt === text.length && !text.endsWith('\n') ? newline : '';
    return { path: template, against: text, edits: [{ start: insertAt, end: insertAt, text: `${lead}${body}${newline}` }] };
  }

  /** Whether the document's template also renders under another name (its subchart is aliased more than once). */
  private rendersUnderOtherNames(documentIndex: number): boolean {
    const { template, source } = this.input.documents[documentIndex] ?? {};
    return this.input.documents.some((d) => d.template === template && d.source !== source);
  }

  private newTemplate(documentIndex: number, object: unknown): { path: string; text: string } | undefined {
    const document = this.input.documents[documentIndex];
    const template = document?.template;
    const text = template ? this.input.templates.get(template) : undefined;
    const skeleton = this.skeletonOf(documentIndex);
    // One PDB template for a workload a `range` renders once per item would be none of theirs.
    if (!template || text === undefined || !skeleton || skeleton.repeated) return undefined;
    return pdbTemplate({ templatesDir: dirname(template), release: this.input.release, workloadTemplate: text, skeleton, workload: document.object, pdb: object });
  }
}

/** Which rendered documents print each values key (see printers), and each document's lines that print one. */
interface Printers {
  under: Map<string, number[]>;
  exactly: Map<string, number[]>;
  lines: Map<number, PrintingLine[]>;
}

/** A template line that prints a values key (`key`, as --set names it), and the place of the field it writes (`trail`). */
interface PrintingLine {
  key: string[];
  node: SkeletonNode;
  trail: string;
}

/** Edits of one template, of the text they were computed on. */
interface TemplateEdit {
  path: string;
  edits: TextEdit[];
  against: string;
}

/** A line of one key and one action, a comment after it at most: `  replicas: {{ .Values.replicaCount }} # why`. */
const FIELD_LINE = /^[ \t]*[^\s:#{][^:{]*:[ \t]*\{\{[^{}]*\}\}[ \t]*(#.*)?\r?\n?$/;

/** The longest prefix of `path` that exists in the rendered object: where a finding about a missing field sits. */
function deepestExisting(object: unknown, path: Path): Path {
  let depth = 0;
  while (depth < path.length && valueAt(object, path.slice(0, depth + 1)) !== undefined) depth++;
  return path.slice(0, depth);
}

function templateLine(match: SkeletonMatch | undefined, wanted: number, skeleton: Skeleton | undefined): number {
  const kindLine = skeleton?.kindLine ?? 0;
  if (!match || wanted === 0) return kindLine;
  if (match.depth === wanted) return match.nodes[match.nodes.length - 1].line;
  return match.opaque?.line ?? kindLine;
}

/** Whether a string in `value` holds the release name as a word of its own (`release-podinfo`, `release`). */
function namesRelease(value: unknown, release: string): boolean {
  const word = new RegExp(`(^|[^A-Za-z0-9])${literalPattern(release)}([^A-Za-z0-9]|$)`);
  const strings = (v: unknown): string[] => (typeof v === 'string' ? [v] : v && typeof v === 'object' ? Object.values(v).flatMap(strings) : []);
  return strings(value).some((s) => word.test(s));
}

/** A document's `metadata.name` when it is written literally. */
function literalName(skeleton: Skeleton): string | undefined {
  const name = matchPath(skeleton, ['metadata', 'name']).nodes[1];
  return name && name.value !== '' && !name.value.includes('{{') ? unquote(name.value) : undefined;
}

/** The values key a node prints: its line's one action, or the block an opaque node is (`toYaml .Values.resources`). */
function printedKey(node: SkeletonNode): string[] | undefined {
  const action = node.kind === 'opaque' ? actionOf(node) : soleAction(node.value);
  return action ? valuesKeyOf(action, node.dot) : undefined;
}

function actionOf(opaque: SkeletonNode): string {
  return opaque.value.replace(/^\{\{-?\s*/, '').replace(/\s*-?\}\}$/, '');
}

function overlaps(a: readonly string[], b: readonly string[]): boolean {
  const n = Math.min(a.length, b.length);
  return a.slice(0, n).every((step, i) => step === b[i]);
}


function brief(value: unknown): string {
  return value !== null && typeof value === 'object' ? '…' : yamlScalar(value);
}

/** The column an item's keys start at (`- name: x` → after the dash and its spaces). */
function itemContentColumn(text: string, lineStarts: Int32Array, item: SkeletonNode): number {
  const after = lineOf(text, lineStarts, item.line).text.slice(item.column + 1);
  return item.column + 1 + (after.length - after.trimStart().length);
}

/** A line of a template: where it starts, where the next starts (the end of the text for the last), and its text with its line break. */
function lineOf(text: string, lineStarts: Int32Array, line: number): { start: number; end: number; text: string } {
  const start = lineStarts[line];
  const end = lineStarts[line + 1] ?? text.length;
  return { start, end, text: text.slice(start, end) };
}

/** The line break a line of a template ends in, for lines written beside it: CRLF or LF. */
function lineBreakOf(line: string): string {
  return line.endsWith('\r\n') ? '\r\n' : '\n';
}
