const BINARY: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };
const DECIMAL: Record<string, number> = { n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };
const QUANTITY = /^([+-]?(?:\d+\.?\d*|\.\d+))(?:(Ki|Mi|Gi|Ti|Pi|Ei)|([eE][+-]?\d+)|(n|u|m|k|M|G|T|P|E))?$/;

/** A Kubernetes resource quantity ("500Mi", "0.5", "100m", "1e3") as a number, or undefined if it is not one. */
export function parseQuantity(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const match = QUANTITY.exec(value.trim());
  if (!match) return undefined;
  const [, number, binary, exponent, decimal] = match;
  const base = Number(number);
  if (binary) return base * BINARY[binary];
  if (exponent) return base * 10 ** Number(exponent.slice(1));
  return base * DECIMAL[decimal ?? ''];
}

/** Bytes for people: 536870912 → "512Mi". */
export function formatBytes(bytes: number): string {
  for (const unit of ['Ei', 'Pi', 'Ti', 'Gi', 'Mi', 'Ki']) {
    if (bytes >= BINARY[unit] && bytes % BINARY[unit] === 0) return `${bytes / BINARY[unit]}${unit}`;
  }
  for (const unit of ['Gi', 'Mi', 'Ki']) {
    if (bytes >= BINARY[unit]) return `${(bytes / BINARY[unit]).toFixed(1)}${unit}`;
  }
  return String(bytes);
}
