import { pathToFileURL } from 'node:url';
import { DidChangeWatchedFilesNotification, type Connection, type Disposable } from 'vscode-languageserver/node';

/**
 * Asks the editor to report changes to every file of the workspace's charts: a chart renders from files no
 * manifest watcher covers (`.Files.Get "files/app.conf"`, a `.txt`), and a change to one must render it again.
 * Registered with the editor when it takes watchers registered at run time with patterns relative to a folder,
 * and again whenever the charts found change.
 */
export class ChartFolderWatch {
  private watched = '';
  private registration: Promise<Disposable | undefined> = Promise.resolve(undefined);

  constructor(
    private readonly connection: Connection,
    private readonly supported: () => boolean,
  ) {}

  watch(chartRoots: readonly string[]): void {
    const key = [...chartRoots].sort().join('\0');
    if (!this.supported() || key === this.watched) return;
    this.watched = key;
    const previous = this.registration;
    this.registration = previous.then(async (old) => {
      old?.dispose();
      if (!chartRoots.length) return undefined;
      const watchers = chartRoots.map((root) => ({ globPattern: { baseUri: pathToFileURL(root).href, pattern: '**/*' } }));
      return this.connection.client.register(DidChangeWatchedFilesNotification.type, { watchers }).catch(() => undefined);
    });
  }
}
