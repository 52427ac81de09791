import type { Connection, TextDocuments } from 'vscode-languageserver/node';
import type { OpenDocument } from './open-document';
import type { ClusterInfo } from '../cluster/types';
import type { Inventory } from '../inventory/inventory';
import type { Finding } from '../rules/types';
import type { ServerSettings } from '../settings';

/** The language server's shared state, handed to each feature module. */
export interface ServerState {
  connection: Connection;
  documents: TextDocuments<OpenDocument>;
  inventory: Inventory;
  readonly settings: ServerSettings;
  readonly cluster: ClusterInfo | undefined;
  /** The workspace folders' uris, as the client named them at initialize. */
  readonly roots: readonly string[];
  /** Whether the client takes file watchers registered at run time with patterns relative to a folder. */
  readonly watchesRelativePatterns: boolean;
  /**
   * Whether the client runs the workload simulation command (it says so in `initializationOptions.clientCommands`,
   * as the VS Code extension does): only then are lenses and links that run it offered.
   */
  readonly runsSimulations: boolean;
  /** Replaces the cluster view (undefined: none) and re-analyses the open documents. */
  setCluster(cluster: ClusterInfo | undefined): void;
  /** The current findings of an open document (cached by version), once a validation of it in slices has ended. */
  findings(uri: string): Promise<Finding[]>;
  revalidateOpen(): void;
}
