/**
 * Latencies counted in bins 19% apart (four per doubling, from 1 µs to two minutes), so a window
 * of any number of runs is summed bin by bin and its percentiles read within about a tenth of
 * the exact values, at a fixed cost per step of a chart.
 */
export const BINS = 112;
const MIN_MS = 2 ** -10;
const PER_DOUBLING = 4;

export function binOf(ms: number): number {
  if (!(ms > MIN_MS)) return 0;
  return Math.min(BINS - 1, Math.floor(Math.log2(ms / MIN_MS) * PER_DOUBLING) + 1);
}

/** The value a bin stands for: the geometric middle of its range. */
export function valueOfBin(bin: number): number {
  return bin === 0 ? MIN_MS : MIN_MS * 2 ** ((bin - 0.5) / PER_DOUBLING);
}

/** The `p` (0–1) percentile of the counts, or undefined when there are none. */
export function percentile(hist: Uint32Array, total: number, p: number): number | undefined {
  if (total <= 0) return undefined;
  const rank = Math.max(1, Math.ceil(p * total));
  let seen = 0;
  for (let bin = 0; bin < hist.length; bin++) {
    seen += hist[bin];
    if (seen >= rank) return round(valueOfBin(bin));
  }
  return round(valueOfBin(hist.length - 1));
}

function round(ms: number): number {
  return ms >= 10 ? Math.round(ms * 10) / 10 : Math.round(ms * 1000) / 1000;
}
