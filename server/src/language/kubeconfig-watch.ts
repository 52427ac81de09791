import { unwatchFile, watchFile, type Stats } from 'node:fs';

/** How often the kubeconfig files are looked at: a stat each, a second apart. */
const POLL_MS = 1_000;

/**
 * Tells when one of the kubeconfig files in use changes on disk: written over (as `kubectl config use-context` writes
 * it), replaced (as an editor saves it, a rename, which ends an inotify watch), created or removed. Polled, not
 * watched: a file that does not exist yet (no ~/.kube/config before `kind create cluster`) can be polled but not
 * watched. A poll that meets a file half written reads it again at the next change.
 */
export class KubeconfigWatch {
  private paths: readonly string[] = [];

  constructor(private readonly changed: () => void) {}

  /** Watches these files, and no other. */
  follow(paths: readonly string[]): void {
    if (paths.length === this.paths.length && paths.every((p, i) => p === this.paths[i])) return;
    this.stop();
    // Not persistent: a watch must not keep a server alive that its client has left.
    for (const path of paths) watchFile(path, { interval: POLL_MS, persistent: false }, this.onStat);
    this.paths = paths;
  }

  stop(): void {
    for (const path of this.paths) unwatchFile(path, this.onStat);
    this.paths = [];
  }

  private readonly onStat = (now: Stats, before: Stats): void => {
    if (now.mtimeMs !== before.mtimeMs || now.ino !== before.ino || now.size !== before.size) this.changed();
  };
}
