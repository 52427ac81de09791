import { FACT, TIMING } from '../facts';
import type { SimTopology, SimWorkload } from '../model';
import type { NodeIncident } from '../node-incidents';
import type { DrainPlan } from './plan';
import { kubectlRefusal } from './planner';

/** What the upgrade has done so far: the drains it started and the nodes it replaced. */
export interface UpgradeStep {
  plans: DrainPlan[];
  incidents: NodeIncident[];
}

/**
 * A rolling node upgrade: one worker at a time is drained; once it is empty a fresh node takes its place,
 * and only then does the next drain start. A drain that never ends stalls the upgrade there. Its automation
 * waits for the API before each drain (`firstWrites`): cordoning is a write, so none starts while the API is down.
 * `drainEnd` runs the simulation with the drains so far and says when the newest one ends.
 */
export function rollUpgrade(
  at: number,
  topology: SimTopology,
  workloads: SimWorkload[],
  base: UpgradeStep,
  drainEnd: (step: UpgradeStep, plan: DrainPlan) => number | null,
  firstWrites: (from: number) => number = (from) => from,
): UpgradeStep {
  const workers = topology.nodes.filter((n) => !n.controlPlane).map((n) => n.name).sort();
  let step = base;
  let t = at;
  for (const node of workers) {
    t = firstWrites(t);
    if (!Number.isFinite(t)) break;
    const halted = kubectlRefusal(workloads, node);
    const plan: DrainPlan = { node, by: 'kubectl', start: t, uncordonAt: Infinity, upgrade: true, ...(halted ? { halted } : {}) };
    step = { plans: [...step.plans, plan], incidents: step.incidents };
    const end = drainEnd(step, plan);
    if (end === null) break;
    const back = end + TIMING.assumedNodeReplace;
    plan.uncordonAt = back;
    step = { plans: step.plans, incidents: [...step.incidents, { node, kind: 'replaced', at: end, backAt: back, what: `${node} was drained and is replaced by a fresh node (assumed ${TIMING.assumedNodeReplace} s to join)`, fact: FACT.nodeUpgrade }] };
    t = back;
  }
  return step;
}
