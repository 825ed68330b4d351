/**
 * A ratio between two contenders taken round by round, then its median. Within a round the two
 * are measured a minute or two apart at most; across rounds this machine's speed moves by half
 * (a neighbour on the host, a burst of steal time), and a ratio of the two medians mixes rounds
 * taken at different speeds. A tail latency is the most sensitive to that: one round's stall
 * decides a median of three.
 */
export interface PairedRatio {
  median: number;
  low: number;
  high: number;
  rounds: number;
}

/** `value(a[i]) / value(b[i])` for every round both were measured in; undefined when none was. */
export function pairedRatio<T>(a: readonly T[], b: readonly T[], value: (x: T) => number): PairedRatio | undefined {
  const ratios: number[] = [];
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const r = value(a[i]) / value(b[i]);
    if (Number.isFinite(r)) ratios.push(r);
  }
  if (ratios.length === 0) return undefined;
  return { median: medianOf(ratios), low: Math.min(...ratios), high: Math.max(...ratios), rounds: ratios.length };
}

/**
 * `value(a[i])` against a baseline measured twice in each round, before and after it: the
 * geometric mean of the two, so a drift of the machine's speed across the round cancels as far
 * as it is steady. Rounds without the second reading use the first alone.
 */
export function bracketedRatio<T>(a: readonly T[], before: readonly T[], after: readonly T[] | undefined, value: (x: T) => number): PairedRatio | undefined {
  const baseline = before.map((b, i) => {
    const second = after?.[i];
    return second === undefined ? value(b) : Math.sqrt(value(b) * value(second));
  });
  return pairedRatio(
    a.map((x) => value(x)),
    baseline,
    (v) => v,
  );
}

/** The middle value (the mean of the middle two for an even count); NaN for none. */
export function medianOf(values: readonly number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** `0.83 (0.76–0.89)`: the median, then the range across rounds when there was more than one. */
export function formatRatio(r: PairedRatio | undefined, unit = ''): string {
  if (!r) return '—';
  const range = r.rounds > 1 ? ` (${r.low.toFixed(2)}–${r.high.toFixed(2)})` : '';
  return `${r.median.toFixed(2)}${unit}${range}`;
}
