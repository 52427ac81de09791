export type IntOrPercent = { kind: 'int'; value: number } | { kind: 'percent'; value: number };

/**
 * Reads an IntOrString budget as the API server validates it: 2 or "25%". Anything else is undefined: a string
 * must be a percentage (`"2"`, which a Helm `| quote` writes, and `" 50% "` are rejected, and the object with them).
 */
export function parseIntOrPercent(value: unknown): IntOrPercent | undefined {
  if (typeof value === 'number' && Number.isInteger(value)) return { kind: 'int', value };
  if (typeof value === 'string' && /^\d+%$/.test(value)) return { kind: 'percent', value: Number(value.slice(0, -1)) };
  return undefined;
}

/** Scales against `total` as intstr.GetScaledValueFromIntOrPercent does; `roundUp` as the disruption controller does for PDBs. */
export function scaleIntOrPercent(value: IntOrPercent, total: number, roundUp: boolean): number {
  if (value.kind === 'int') return value.value;
  const exact = (value.value * total) / 100;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}

export function formatIntOrPercent(value: IntOrPercent): string {
  return value.kind === 'int' ? String(value.value) : `${value.value}%`;
}
