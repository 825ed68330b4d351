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
  return summarize(ratios);
}

/** Ratios already taken round by round (each round's own pair): their median and range; undefined for none. */
export function summarize(ratios: readonly number[]): PairedRatio | undefined {
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

/** Which side of its target a ratio must be on. */
export type TargetDirection = 'at least' | 'at most';

/**
 * Whether a ratio's median meets its target (`at least` or `at most` it), judged against this
 * run's noise floor: the same server measured twice (bare node:http again vs bare). Where the
 * floor strays further from 1.00 than the median lies from the target, two equal servers read as
 * far apart as the verdict's margin, so the run decides nothing either way: noisy runs have been
 * read as misses and as passes alike.
 */
export function verdict(value: PairedRatio, target: number, direction: TargetDirection, floor: PairedRatio | undefined): 'met' | 'NOT met' | 'not decided (noise floor)' {
  const met = direction === 'at least' ? value.median >= target : value.median <= target;
  if (floor === undefined) return met ? 'met' : 'NOT met';
  const noise = Math.abs(floor.median - 1);
  const margin = Math.abs(value.median / target - 1);
  if (margin < noise) return 'not decided (noise floor)';
  return met ? 'met' : 'NOT met';
}
