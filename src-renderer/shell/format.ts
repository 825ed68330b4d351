import { counted } from '../../shared/counted.ts';

/** HH:MM:SS.mmm in local time, for live lists. */
export function clockTime(epochMs: number): string {
  const d = new Date(epochMs);
  const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

/**
 * A run's duration for a narrow column: milliseconds with one decimal under a second, seconds
 * beyond (a 15 s timeout read "15002.…", cut at the column's edge).
 */
export function runDuration(ms: number): string {
  if (ms < 1_000) return `${ms.toFixed(1)} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const seconds = Math.round(ms / 1_000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** Counts read the same in the studio's panels and the CLI's lines. */
export { counted };

/** "None of the 3 lines match", and for one "The one line does not match". */
export function noneOfMatch(n: number, noun: string, where = ''): string {
  return n === 1 ? `The one ${noun}${where} does not match` : `None of the ${counted(n, noun)}${where} match`;
}
