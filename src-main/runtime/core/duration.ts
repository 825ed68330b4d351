const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h)/;

/**
 * Parses `250ms`, `5s`, `1m30s`, `2h` into milliseconds. A bare number is refused: a unit is
 * always written, so `5` never silently means five milliseconds.
 *
 * Hand-written on purpose: the libraries (ms, parse-duration) accept a bare number as ms and
 * units this format does not have (days, years, words), and their errors cannot say what to
 * write instead; the grammar is one regular expression.
 */
export function parseDuration(text: string): number {
  const input = text.trim();
  if (input === '0') return 0;
  let rest = input;
  let total = 0;
  while (rest.length > 0) {
    const match = DURATION.exec(rest);
    if (!match) {
      throw new Error(`"${text}" is not a duration; write a number with a unit, e.g. 250ms, 5s, 1m30s`);
    }
    total += Number(match[1]) * UNIT_MS[match[2]];
    rest = rest.slice(match[0].length);
  }
  if (input.length === 0) throw new Error('an empty string is not a duration; write e.g. 5s');
  return total;
}

export function formatDuration(ms: number): string {
  if (ms % 3_600_000 === 0 && ms > 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0 && ms > 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0 && ms > 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}
