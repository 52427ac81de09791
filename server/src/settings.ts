import type { SeverityOverride } from './rules/types';

/** Settings the client pushes to the server (and that a plain LSP client may send as initializationOptions). */
export interface ServerSettings {
  enable: boolean;
  run: 'onType' | 'onSave';
  rules: Record<string, SeverityOverride>;
}

export const DEFAULT_SETTINGS: ServerSettings = { enable: true, run: 'onType', rules: {} };

export function readSettings(value: unknown): ServerSettings {
  const v = (value && typeof value === 'object' ? value : {}) as Partial<ServerSettings>;
  const rules: Record<string, SeverityOverride> = {};
  for (const [id, level] of Object.entries(v.rules ?? {})) {
    if (['off', 'error', 'warning', 'info', 'hint'].includes(level as string)) rules[id] = level as SeverityOverride;
  }
  return { enable: v.enable !== false, run: v.run === 'onSave' ? 'onSave' : 'onType', rules };
}
