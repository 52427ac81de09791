import { resolve } from 'node:path';
import { analyzeRenderedUnit, type UnitAnalysisOptions, type UnitFinding } from '../render/analyze-unit';
import { renderUnit, type RenderSettings } from '../render/render-unit';
import { subject } from '../fixes/apply';
import { RULES } from '../rules/index';
import type { Finding } from '../rules/types';
import type { RenderUnit } from '../units/find-units';

/** The units a fix's files take part in, each with the render errors it had before the fix was written. */
export type RenderErrors = Map<RenderUnit, string[]>;

/**
 * The units a fix touches among the round's (the finding's own, and every unit one of whose files it edits: a
 * shared base is deployed by several roots), with their render errors before it is written. Their renders are those the
 * round analysed: cached, not run again.
 */
export async function renderErrorsBefore(unitRoot: string, edited: readonly string[], roundUnits: readonly RenderUnit[], settings: RenderSettings): Promise<RenderErrors> {
  const touched = new Set(edited.map((path) => resolve(path)));
  const units = roundUnits.filter((unit) => unit.root === unitRoot || unit.files.some((file) => touched.has(file)));
  const errors: RenderErrors = new Map();
  for (const unit of units) errors.set(unit, await renderErrors(unit, settings));
  return errors;
}

/**
 * The first of those units that no longer renders once the fix is written (a chart's `fail` guard on the value
 * it set, a patch the overlay can no longer apply), with what its tool said; undefined when each renders as
 * before. They render from their files on disk: a file the fix created is read by the tool as it builds.
 */
export async function brokenRender(before: RenderErrors, settings: RenderSettings): Promise<{ root: string; reason: string } | undefined> {
  for (const [unit, errorsBefore] of before) {
    const added = (await renderErrors(unit, settings)).filter((error) => !errorsBefore.includes(error));
    if (added.length) return { root: unit.root, reason: added[0] };
  }
  return undefined;
}

async function renderErrors(unit: RenderUnit, settings: RenderSettings): Promise<string[]> {
  const render = await renderUnit(unit, settings);
  return render.kind === 'rendered' ? render.unit.problems.filter((p) => p.severity === 'error').map((p) => p.message) : [];
}

/** The findings of the unit at `unitRoot` as its files are now on disk; none when it does not render. */
export async function unitFindings(unitRoot: string, roundUnits: readonly RenderUnit[], settings: RenderSettings, options: UnitAnalysisOptions): Promise<UnitFinding[]> {
  const unit = roundUnits.find((u) => u.root === unitRoot);
  const render = unit ? await renderUnit(unit, settings) : undefined;
  return render?.kind === 'rendered' ? analyzeRenderedUnit(render.unit, options) : [];
}

/** What a rendered finding says of its resource, without the values key it names (which a fix may make another). */
function said(finding: Finding): string {
  const { origin } = finding;
  return origin && finding.message.endsWith(` (from ${origin})`) ? finding.message.slice(0, -` (from ${origin})`.length) : finding.message;
}

/**
 * What the fix `fixTitle` written did to its unit, `before` its findings until then: 'finding left' when the finding
 * is still there as it was (its rule, about the same field of the same resource, saying the same apart from the values
 * key it names, or offering the same fix): the fix edited something that is not what renders (a branch of an `if` not
 * taken, a subchart's values a parent's global overrides). A finding that says less, with another fix first, is one
 * the fix took a step towards (each piece a workload's sessions lack is a fix of its own: taken back as left, none was
 * ever written). Else an error it brought that was not there (a budget written into a subchart two aliases render
 * selects the pods of both: two budgets over one set of pods), which must be taken back too: nothing else would show
 * it before the chart is installed. A warning is what a fix may bring (a second replica asks for a budget and a
 * spread, of the workload an autoscaler's minimum raised too), for the next round or the person.
 */
export async function fixVerdict(
  unitRoot: string,
  finding: Finding,
  fixTitle: string,
  before: readonly Finding[],
  roundUnits: readonly RenderUnit[],
  settings: RenderSettings,
  options: UnitAnalysisOptions,
): Promise<'finding left' | { brought: Finding } | undefined> {
  const after = await unitFindings(unitRoot, roundUnits, settings, options);
  const sameResource = (a: Finding, b: Finding) => subject(a) === subject(b);
  const left = (other: UnitFinding) =>
    other.ruleId === finding.ruleId &&
    sameResource(other, finding) &&
    JSON.stringify(other.fieldPath ?? null) === JSON.stringify(finding.fieldPath ?? null) &&
    (said(other) === said(finding) || other.sourceFixes.some((fix) => fix.title === fixTitle));
  if (after.some(left)) return 'finding left';
  const brought = after.find(
    (other) =>
      // The rule's own severity: one a person raised to error (`--rule pdb-missing=error`) is still what a second
      // replica asks for.
      RULES.find((rule) => rule.meta.id === other.ruleId)?.meta.severity === 'error' &&
      // Known by its resource, or by the template it came from: a name a template draws at random (a test hook's
      // `randAlphaNum`) is another on each render.
      !before.some((known) => known.ruleId === other.ruleId && (sameResource(known, other) || (known.uri === other.uri && known.resource?.kind === other.resource?.kind))),
  );
  return brought ? { brought } : undefined;
}
