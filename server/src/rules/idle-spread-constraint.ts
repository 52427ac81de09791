import type { Fix } from '../fixes/edit';
import { numberForDigits } from '../fixes/number-for-digits';
import { setField } from '../fixes/yaml-edit';
import { describeEveryPod, describeRunning, type EffectiveReplicas } from '../inventory/inventory';
import { quotedDigits } from '../manifest/integer-field';
import type { Resource } from '../manifest/parse';
import type { Path } from '../manifest/path';
import { describeMaxSkew, type IdleSpreadConstraint, refusedSkewReason, skewEffect } from '../manifest/spread';
import { describeResource } from '../manifest/workload';
import type { Report } from './types';

const TIGHTENED =
  'pods the scheduler placed before may wait Pending: under DoNotSchedule, maxSkew 1 keeps a pod off every node holding more of them than the emptiest one, and a node where it cannot run (full, or tainted: taints do not take a node out of the count) stays the emptiest';

/** The rules' unsafeFixes of that fix. */
export const LOWERED_SKEW_UNSAFE = `Unsafe when it lowers the \`maxSkew\` of a \`DoNotSchedule\` constraint: ${TIGHTENED}.`;

/**
 * What replicas-not-spread and dns-single-point report when the only spread constraints on the pods' own labels spread
 * nothing for their maxSkew: one the API server refuses (said instead of a spread, as the workload never runs), else
 * one that lets every replica into one domain. Said at that maxSkew, which the fix sets rather than adding a constraint.
 */
export function idleSpreadConstraintReport(workload: Resource, templatePath: Path, replicas: EffectiveReplicas, idle: IdleSpreadConstraint, related: Report['related']): Report {
  return {
    resource: workload,
    path: maxSkewPath(templatePath, idle),
    target: 'value',
    message: idle.refused ? refusedSkew(workload, idle, wantedSkew(idle, replicas.value)) : looseSkew(workload, replicas, idle),
    fixes: () => [idleSpreadConstraintFix(workload, templatePath, replicas.value, idle)],
    related,
  };
}

/** The fix of a constraint idle for its maxSkew at `replicas`: that maxSkew set to one that spreads them (see idleSpreadConstraintReport). */
export function idleSpreadConstraintFix(workload: Resource, templatePath: Path, replicas: number, idle: IdleSpreadConstraint): Fix | undefined {
  const path = maxSkewPath(templatePath, idle);
  const meant = writtenNumber(idle.maxSkew);
  return wantedSkew(idle, replicas) === meant ? numberForDigits(workload, path, idle.maxSkew) : tightestSkew(workload, path, idle, meant);
}

function maxSkewPath(templatePath: Path, idle: IdleSpreadConstraint): Path {
  return [...templatePath, 'spec', 'topologySpreadConstraints', idle.index, 'maxSkew'];
}

/** The number written as it meant, when it spreads `replicas`; else 1. */
function wantedSkew(idle: IdleSpreadConstraint, replicas: number): number {
  const meant = writtenNumber(idle.maxSkew);
  return meant !== undefined && skewEffect(meant, replicas) === 'spreads' ? meant : 1;
}

/** The number a maxSkew is written as, in quotes or not. */
function writtenNumber(maxSkew: unknown): number | undefined {
  return typeof maxSkew === 'number' ? maxSkew : quotedDigits(maxSkew);
}

function looseSkew(workload: Resource, replicas: EffectiveReplicas, { topologyKey, domain, maxSkew }: IdleSpreadConstraint): string {
  const every = describeEveryPod(replicas.value);
  const together = domain === 'node' ? 'on one node' : `in one ${domain}, on one node of it`;
  return `${describeResource(workload)}: ${every} may run on one node and go down with it. It runs ${describeRunning(replicas)}. Its topologySpreadConstraints on ${topologyKey} has ${describeMaxSkew(maxSkew)}, which lets ${every} run ${together}: when that node dies the workload is down until they are rescheduled.`;
}

function refusedSkew(workload: Resource, { topologyKey, maxSkew }: IdleSpreadConstraint, wanted: number): string {
  return `${describeResource(workload)}: its topologySpreadConstraints on ${topologyKey} has ${describeMaxSkew(maxSkew)}${refusedSkewReason(maxSkew)}, so the API server rejects it. It refuses the whole ${workload.kind}, which then runs no pod at all. maxSkew is a whole number from 1: write ${wanted}.`;
}

/** maxSkew 1; unsafe where it tightens a constraint the scheduler does not go past (DoNotSchedule). */
function tightestSkew(workload: Resource, path: Path, { topologyKey, hard }: IdleSpreadConstraint, meant: number | undefined): Fix {
  const tightened = hard && meant !== undefined && meant > 1;
  return { title: `Keep the pods apart (maxSkew: 1 on ${topologyKey})`, preferred: true, unsafe: tightened ? TIGHTENED : undefined, edits: setField(workload, path, 1) ?? [] };
}
