import { resolve } from 'node:path';
import { analyzeRenderedUnit, type UnitAnalysisOptions } from '../render/analyze-unit';
import { renderUnit, type RenderSettings } from '../render/render-unit';
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

/**
 * Whether the unit at `unitRoot` still has the finding once its fix is written (its rule, about the same field of the
 * same resource): the fix edited something that is not what renders (a branch of an `if` not taken, a subchart's
 * values a parent's global overrides), and must be taken back.
 */
export async function stillFound(unitRoot: string, finding: Finding, roundUnits: readonly RenderUnit[], settings: RenderSettings, options: UnitAnalysisOptions): Promise<boolean> {
  const unit = roundUnits.find((u) => u.root === unitRoot);
  const render = unit ? await renderUnit(unit, settings) : undefined;
  if (render?.kind !== 'rendered') return false;
  const same = (other: Finding) =>
    other.ruleId === finding.ruleId &&
    other.resource?.kind === finding.resource?.kind &&
    other.resource?.namespace === finding.resource?.namespace &&
    other.resource?.name === finding.resource?.name &&
    JSON.stringify(other.fieldPath ?? null) === JSON.stringify(finding.fieldPath ?? null);
  return analyzeRenderedUnit(render.unit, options).some(same);
}
