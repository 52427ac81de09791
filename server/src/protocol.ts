/**
 * Custom requests and notifications between the VS Code client and the language server, typed once
 * for both sides (method names are the contract; params and results are plain JSON).
 */
export const Methods = {
  /** `{ scenario: Scenario }` → `SimulationResult`: the control-plane failure simulated on the current cluster (the demo when none) plus the workspace. */
  simulate: 'kubeResilience/simulate',
  /** `{}` → `SimulationInput`: the cluster's shape as the simulation webview draws it. */
  simulationInput: 'kubeResilience/simulationInput',
} as const;
