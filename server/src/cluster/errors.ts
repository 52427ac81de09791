/**
 * Why a cluster could not be read at all. `no-kubeconfig` is the one case the language server
 * answers with the demo cluster; every other kind is shown to the user as it is.
 */
export type ClusterErrorKind = 'no-kubeconfig' | 'config' | 'credentials' | 'unreachable' | 'snapshot' | 'cancelled';

export class ClusterError extends Error {
  constructor(
    readonly kind: ClusterErrorKind,
    message: string,
    /** The context it is about, and the cause in a few words ("connection refused by 127.0.0.1:9"), when known. */
    readonly details: { context?: string; cause?: string } = {},
  ) {
    super(message);
  }
}
