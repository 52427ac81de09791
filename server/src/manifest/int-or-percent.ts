export type IntOrPercent = { kind: 'int'; value: number } | { kind: 'percent'; value: number };

/** Reads an IntOrString field: 2, "2" or "25%". Anything else is undefined. */
export function parseIntOrPercent(value: unknown): IntOrPercent | undefined {
  if (typeof value === 'number' && Number.isInteger(value)) return { kind: 'int', value };
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (/^\d+%$/.test(text)) return { kind: 'percent', value: Number(text.slice(0, -1)) };
  if (/^\d+$/.test(text)) return { kind: 'int', value: Number(text) };
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
