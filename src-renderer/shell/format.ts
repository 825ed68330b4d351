/** HH:MM:SS.mmm in local time, for live lists. */
export function clockTime(epochMs: number): string {
  const d = new Date(epochMs);
  const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}
