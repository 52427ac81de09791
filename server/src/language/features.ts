import type { ServerCapabilities } from 'vscode-languageserver/node';
import { clusterFeature } from './cluster';
import { completionFeature } from './completion';
import { simulationFeature } from './simulation';
import { unitsFeature } from './units';
import type { ServerState } from './state';

export interface Feature {
  /** Capabilities this feature adds to the initialize result. */
  capabilities?: ServerCapabilities;
  register(state: ServerState): void;
  /** Called once the first settings are known (after initialize) and after every change of settings. */
  settingsChanged?(state: ServerState): void;
}

/**
 * Feature modules of the language server beyond diagnostics, hovers and code actions
 * (cluster, simulation, completion, …). Each declares its capabilities and registers its own handlers.
 */
export const FEATURES: Feature[] = [clusterFeature, completionFeature, simulationFeature, unitsFeature];
