/** 300 → "0.3s", 30000 → "30s": durations in messages, as people write them. */
export function formatSeconds(ms: number): string {
  // Under a tenth of a second, in milliseconds: `--timeout 0.0001` read "within 0.0s".
  if (ms < 100) return `${Math.max(1, Math.round(ms))}ms`;
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${(ms / 1000).toFixed(1)}s`;
}
