import type { Connection, WorkDoneProgressServerReporter } from 'vscode-languageserver/node';

/** Work-done progress in the editor for work that turned out to take a while. */
export interface LateProgress {
  /** What the work is at now (shown once the progress has begun). */
  report(message: string, percentage?: number): void;
  /** The work has ended: its progress ends with it, or never begins. */
  done(): void;
}

/**
 * Progress that begins only once the work has lasted `afterMs` (quick work flashes nothing in the editor),
 * with the last message reported by then. With `onCancel`, the editor offers to cancel it.
 */
export function progressAfter(connection: Connection, afterMs: number, title: string, message: string, onCancel?: () => void): LateProgress {
  let reporter: WorkDoneProgressServerReporter | undefined;
  let ended = false;
  let latest: { message: string; percentage?: number } = { message };
  const timer = setTimeout(() => {
    connection.window
      .createWorkDoneProgress()
      .then((created) => {
        // The editor made a progress for it: it begins, and ends at once if the work ended meanwhile.
        created.begin(title, latest.percentage, latest.message, !!onCancel);
        if (ended) return created.done();
        reporter = created;
        if (onCancel) created.token.onCancellationRequested(onCancel);
      })
      .catch(() => undefined);
  }, afterMs);
  return {
    report(message, percentage) {
      latest = { message, percentage };
      if (percentage === undefined) reporter?.report(message);
      else reporter?.report(percentage, message);
    },
    done() {
      ended = true;
      clearTimeout(timer);
      reporter?.done();
      reporter = undefined;
    },
  };
}
