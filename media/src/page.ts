import type { FindingRef, SimulationInput } from '../../server/src/simulate/messages';
import type { Scenario, SimulationResult } from '../../server/src/simulate/types';
import type { Target } from './scenario';

/** Everything the page shows; saved with vscode.setState so it survives hiding and reloads. */
export interface PageState {
  scenario: Scenario;
  input?: SimulationInput;
  result?: SimulationResult;
  target?: Target;
  focus?: { namespace: string; workload: string };
  status: { kind: 'idle' | 'busy' | 'error'; text: string };
}

/** What the views may ask the page to do. */
export interface Actions {
  setScenario(scenario: Scenario): void;
  selectTarget(target: Target | undefined): void;
  exportReport(): void;
  /** Show a finding in its manifest (a PDB that blocks a drain). */
  openFinding(finding: FindingRef): void;
}
