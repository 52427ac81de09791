import { homedir } from 'node:os';
import { kubeconfigPaths, readContexts, type ContextListing } from '../cluster/contexts';
import { ClusterError } from '../cluster/errors';
import { loadClusterForEditor } from '../cluster/load';
import { topologyVerdict } from '../cluster/topology-detect';
import type { ClusterInfo } from '../cluster/types';
import { ErrorCodes, ResponseError } from 'vscode-languageserver/node';
import { Methods, type ClusterFindingsResult, type ClusterStatus, type ContextsParams } from '../protocol';
import { validateObjectRef } from '../simulate/messages';
import { clusterFindings, inventoryForCluster, liveObjectYaml } from './cluster-findings';
import { clusterSettingsKey } from '../settings';
import type { Feature } from './features';
import { KubeconfigWatch } from './kubeconfig-watch';
import type { ServerState } from './state';

function statusOf(cluster: ClusterInfo | undefined, fallback?: string): ClusterStatus {
  if (!cluster) return { source: 'none', name: '', verdict: 'no cluster is read (kubeResilience.cluster is off)', controlPlanes: null, missing: [] };
  return {
    source: cluster.source,
    name: cluster.name,
    verdict: topologyVerdict(cluster.topology),
    ...(fallback ? { fallback } : {}),
    controlPlanes: cluster.topology.managed ? null : (cluster.topology.controlPlaneCount ?? null),
    ...(cluster.topology.managed ? { managed: cluster.topology.managed } : {}),
    missing: cluster.missing,
  };
}

/**
 * Keeps the server's view of the cluster in step with the settings: reads it in the background (a
 * slow or dead cluster never holds up diagnostics), tells the client how it went, and answers the
 * client's cluster requests.
 */
class ClusterLoader {
  private key: string | undefined;
  private running: AbortController | undefined;
  private loadedKey: string | undefined;
  /** The cluster the status bar and tree view speak of (the demo, when fallen back to). */
  private shown: ClusterInfo | undefined;
  private status: ClusterStatus = { source: 'none', name: '', verdict: 'reading the cluster…', controlPlanes: null, missing: [] };
  /**
   * The kubeconfig's current-context when the cluster was last read, while it decides which cluster is read (no
   * context set): `kubectl config use-context` in a terminal, or a first kubeconfig written, reads the cluster again.
   */
  private followed: { current: string | undefined } | undefined;
  private readonly kubeconfigWatch = new KubeconfigWatch(() => this.kubeconfigChanged());

  constructor(private readonly state: ServerState) {
    state.connection.onRequest(Methods.refreshCluster, () => this.load());
    state.connection.onRequest(Methods.clusterFindings, (): ClusterFindingsResult => this.findings());
    state.connection.onRequest(Methods.liveObject, (params: unknown) => {
      const checked = validateObjectRef(params);
      if (!checked.ok) throw new ResponseError(ErrorCodes.InvalidParams, checked.error);
      return liveObjectYaml(this.shown, checked.value);
    });
    state.connection.onRequest(Methods.listContexts, (params: unknown): ContextListing => {
      const kubeconfig = (params as ContextsParams | null)?.kubeconfig;
      if (kubeconfig !== undefined && typeof kubeconfig !== 'string') throw new ResponseError(ErrorCodes.InvalidParams, 'kubeconfig must be a string');
      return readContexts(kubeconfig, process.env, homedir());
    });
  }

  settingsChanged(): void {
    const key = clusterSettingsKey(this.state.settings);
    if (key !== this.key) {
      this.key = key;
      void this.load();
    } else if (!this.running) {
      // A client that cleans its settings otherwise (a blank folder in extraPath) took them for another cluster, and
      // waits for its status: the one it has is told again.
      void this.state.connection.sendNotification(Methods.clusterStatus, this.status);
    }
  }

  async load(): Promise<ClusterStatus> {
    this.running?.abort();
    const controller = new AbortController();
    this.running = controller;
    const settings = this.state.settings;
    this.followCurrentContext();
    // The current-context it follows is part of what decides the cluster: a failed read after `use-context` kept the
    // last context's view as if it were the same cluster's.
    const key = `${clusterSettingsKey(settings)}|${this.followed?.current ?? ''}`;
    try {
      const { cluster, fallback } = await loadClusterForEditor({
        mode: settings.cluster,
        kubeconfig: settings.kubeconfig,
        context: settings.context,
        trusted: settings.trusted,
        extraPath: settings.extraPath,
        signal: controller.signal,
      });
      if (controller !== this.running) return this.status;
      // The demo stands in only where a person asked for it: manifests are never judged against a
      // cluster they will not run on. Fallen back to, it still feeds the simulator and the tree view.
      this.state.setCluster(fallback ? undefined : cluster);
      this.shown = cluster;
      this.loadedKey = key;
      this.status = statusOf(cluster, fallback);
    } catch (error) {
      if (controller !== this.running) return this.status;
      const message = error instanceof ClusterError ? error.message : `reading the cluster failed: ${(error as Error).message}`;
      const details = error instanceof ClusterError ? error.details : {};
      const cause = details.cause ? { errorCause: details.cause } : {};
      // A refresh that fails keeps the last good view of the same cluster; anything else leaves manifests on their own.
      const kept = this.loadedKey === key ? this.state.cluster : undefined;
      if (!kept) {
        this.state.setCluster(undefined);
        this.shown = undefined;
        this.loadedKey = undefined;
      }
      this.status = kept
        ? { ...statusOf(kept), error: message, ...cause }
        : { source: 'none', name: settings.context ?? details.context ?? '', verdict: '', controlPlanes: null, error: message, ...cause, missing: [] };
    }
    this.running = undefined;
    void this.state.connection.sendNotification(Methods.clusterStatus, this.status);
    return this.status;
  }

  /** Watches the kubeconfig files while their current-context decides the cluster, and notes that context now. */
  private followCurrentContext(): void {
    const { cluster, kubeconfig, context } = this.state.settings;
    if (cluster !== 'auto' || context !== undefined) {
      this.kubeconfigWatch.stop();
      this.followed = undefined;
      return;
    }
    this.kubeconfigWatch.follow(kubeconfigPaths(kubeconfig, process.env, homedir()));
    this.followed = { current: readContexts(kubeconfig, process.env, homedir()).current };
  }

  private kubeconfigChanged(): void {
    if (!this.followed) return;
    // Other changes (a token refreshed, a context added) leave the cluster read as it is.
    if (readContexts(this.state.settings.kubeconfig, process.env, homedir()).current !== this.followed.current) void this.load();
  }

  findings(): ClusterFindingsResult {
    const cluster = this.shown;
    if (!cluster) return { findings: [] };
    const inventory = inventoryForCluster(this.state.inventory, cluster, cluster === this.state.cluster);
    return { findings: clusterFindings(inventory, cluster, this.state.settings.rules) };
  }
}

let loader: ClusterLoader | undefined;

/** The live cluster (or snapshot, or demo) behind the open manifests. */
export const clusterFeature: Feature = {
  register(state) {
    loader = new ClusterLoader(state);
  },
  settingsChanged() {
    loader?.settingsChanged();
  },
};
