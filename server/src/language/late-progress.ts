import type { Connection, WorkDoneProgressServerReporter } from 'vscode-languageserver/node';

/** Work-done progress in the editor for work that turned out to take a while. */
export interface LateProgress {
  /** What the work is at now (shown once the progress has begun). */
  report(message: string, percentage?: number): void;
  /** The work has ended: its progress ends with it, or never begins. */
  done(): void;
}

/** How long work runs before the editor shows its progress: quick work flashes nothing. */
const PROGRESS_AFTER_MS = 1000;

/**
 * Progress that begins only once the work has lasted a second, with the last message reported by then.
 * With `onCancel`, the editor offers to cancel it.
 */
export function lateProgress(connection: Connection, title: string, message: string, onCancel?: () => void): LateProgress {
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
  }, PROGRESS_AFTER_MS);
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
