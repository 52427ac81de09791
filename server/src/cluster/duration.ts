/** 300 → "0.3s", 30000 → "30s": durations in messages, as people write them. */
export function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${(ms / 1000).toFixed(1)}s`;
}
