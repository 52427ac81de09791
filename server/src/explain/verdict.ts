import type { Resource } from '../manifest/parse';
import { BLOCKING_EFFECTS } from '../manifest/scheduling';
import { describeRefusedSkew } from '../manifest/spread';
import { describeResource } from '../manifest/workload';
import type { Finding } from '../rules/types';
import { plural } from '../words';
import type { Posture } from './posture';
import { HARMS, type Risk, type ScenarioRow } from './scenarios';
import { markdownText } from './markdown-text';

/** What a node agent misses: nodes it does not run on, and the priority that keeps it there under node pressure. */
function agentRisks(p: Posture): Risk[] {
  const agent = p.nodeAgent;
  if (!agent) return [];
  const risks: Risk[] = [];
  const goneThere = agent.duty ? `get no ${agent.duty}` : 'run without it';
  const untolerated = BLOCKING_EFFECTS.filter((effect) => !agent.toleratedEffects.includes(effect));
  if (untolerated.length === BLOCKING_EFFECTS.length) risks.push({ harm: 'stall', verdict: `tainted nodes ${goneThere}` });
  else if (untolerated.length) risks.push({ harm: 'stall', verdict: `nodes tainted ${untolerated.join(', ')} ${goneThere}` });
  if (!agent.priorityClassName) risks.push({ harm: 'flaw', verdict: 'priority 0: among the first evicted under node pressure' });
  return risks;
}

/** A probe timing or a maxSkew the API server refuses: it rejects the whole workload, before any failure. */
function refusedRisks(p: Posture): Risk[] {
  const probe = p.containers.find((c) => c.refused)?.refused;
  const refused = probe ? `${probe.timing} ${probe.why}` : p.idleSpread?.refused ? describeRefusedSkew(p.idleSpread) : undefined;
  return refused ? [{ harm: 'outage', verdict: `the API server rejects it (${markdownText(refused)}): no pod runs` }] : [];
}

/** What the workload rides out, when nothing hurts it. */
function sturdy(p: Posture): string {
  if (p.kind === 'DaemonSet') return "one pod per node: a node failure costs only that node's pod";
  if (p.kind === 'Job' || p.kind === 'CronJob') return 'a drain or node failure reruns its pod from scratch';
  if (p.replicas.value === 0) return 'scaled to 0: nothing runs';
  return 'survives a node drain, a node failure and a control-plane outage';
}

/**
 * The card's first line: the worst thing a failure does to this workload, with its numbers, or what it
 * survives; flagged when anything hurts or a rule found something.
 */
export function verdictLine(resource: Resource, p: Posture, rows: readonly ScenarioRow[], findings: readonly Finding[]): string {
  const risks = [...refusedRisks(p), ...rows.flatMap((r) => (r.risk ? [r.risk] : [])), ...agentRisks(p)];
  const worst = HARMS.map((harm) => risks.find((r) => r.harm === harm)).find((r) => r);
  const flag = worst || findings.length ? '⚠' : '✓';
  const count = findings.length ? ` — ${plural(findings.length, 'finding')}` : '';
  return `**${flag} ${markdownText(describeResource(resource))}**: ${worst?.verdict ?? sturdy(p)}${count}`;
}
