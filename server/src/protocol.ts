/**
 * Custom requests and notifications between the VS Code client and the language server, typed once
 * for both sides (method names are the contract; params and results are plain JSON).
 */
export const Methods = {
  /** `{ scenario: Scenario }` → `SimulationResult`: the control-plane failure simulated on the current cluster (the demo when none) plus the workspace. */
  simulate: 'kubeResilience/simulate',
  /** `{}` → `SimulationInput`: the cluster's shape as the simulation webview draws it. */
  simulationInput: 'kubeResilience/simulationInput',
  /** `FindingRef` → `FindingLocation | null`: where a finding about that resource is in the workspace (its resource's kind line when the rule does not fire there). */
  locateFinding: 'kubeResilience/locateFinding',
  /** Server → client notification, `ClusterStatus`: which cluster is in use and how it stands, after every (re)load. */
  clusterStatus: 'kubeResilience/clusterStatus',
  /** `{}` → `ClusterFindingsResult`: findings that belong to no file (the cluster's own shape). */
  clusterFindings: 'kubeResilience/clusterFindings',
  /** `LiveObjectParams` → `string | null`: the live object as YAML, for a read-only view of what the cluster runs. */
  liveObject: 'kubeResilience/liveObject',
  /** `{}` → `ClusterStatus`: reads the cluster again (settings unchanged) and answers the new status. */
  refreshCluster: 'kubeResilience/refreshCluster',
  /** `ContextsParams` → `ContextListing`: the contexts of the kubeconfig files in use, for Select Context. */
  listContexts: 'kubeResilience/listContexts',
} as const;

/**
 * Commands the server runs (`workspace/executeCommand`, no arguments). A client registers them as commands from the
 * server's capabilities, but for those it names in `initializationOptions.clientCommands`: VS Code's extension
 * registers them itself, so that they are there while the server is not (the language client drops what it
 * registered when the server stops, and the command palette then said "command not found").
 */
export const ServerCommands = {
  /** Reads the workspace folders' manifests again, as at start: after a cancelled read, say. */
  readWorkspaceAgain: 'kubeResilience.readWorkspaceAgain',
} as const;

export type ClusterSource = 'live' | 'snapshot' | 'demo' | 'none';

/** One glance at the cluster in use, as the status bar shows it. */
export interface ClusterStatus {
  source: ClusterSource;
  /** The kubeconfig context, the snapshot path, or "demo"; empty when there is none. */
  name: string;
  /** One sentence on how the cluster survives a control-plane failure, e.g. "One control plane: while it is down there is no API, …". */
  verdict: string;
  /** Why this cluster is shown instead of the one asked for, e.g. the demo when no kubeconfig exists. */
  fallback?: string;
  /** Control-plane nodes seen; null when the provider hides them (managed clusters) or they cannot be told. */
  controlPlanes: number | null;
  /** The provider running a hidden control plane (GKE, EKS, AKS), when it is one. */
  managed?: string;
  /** Why the cluster could not be read (then source is 'none', or the last good view is kept). */
  error?: string;
  /** The same in a few words, for the status bar ("connection refused by 127.0.0.1:9"). */
  errorCause?: string;
  /** Resource types that could not be read, and why. */
  missing: { resource: string; reason: string }[];
}

/** A finding about the cluster itself, with no file to show it in. */
export interface ClusterFinding {
  ruleId: string;
  severity: 'error' | 'warning' | 'info' | 'hint';
  /** The finding's first sentence, which stands alone; `details` says why, when and what to do. */
  headline: string;
  details: string;
  resource: { kind: string; name: string | null; namespace: string } | null;
  /** About the cluster itself (nodes, control plane, DNS), or about a workload running in it that the workspace does not define. */
  source: 'cluster' | 'workload';
  /** Where the workspace defines the resource, when it does: a click opens it there. */
  location?: { uri: string; range: { start: { line: number; character: number }; end: { line: number; character: number } } };
}

export interface LiveObjectParams {
  kind: string;
  namespace: string;
  name: string;
}

export interface ContextsParams {
  /** `kubeResilience.kubeconfig` as the client resolves it (trust, the Kubernetes extension); absent: KUBECONFIG, else ~/.kube/config. */
  kubeconfig?: string;
}

export interface ClusterFindingsResult {
  findings: ClusterFinding[];
}
