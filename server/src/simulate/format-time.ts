/** Seconds as people say them: "0 s", "45 s", "10 m", "20 m 5 s", "1 h 30 m". */
export function formatSeconds(seconds: number): string {
  if (!Number.isFinite(seconds)) return 'never';
  const total = Math.round(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const parts = [h ? `${h} h` : '', m ? `${m} m` : '', s ? `${s} s` : ''].filter(Boolean);
  return parts.length ? parts.join(' ') : '0 s';
}

