import { describe, expect, it } from 'vitest';
import { bracketedRatio, formatRatio, pairedRatio, verdict, type PairedRatio } from './paired-ratio.ts';

describe('pairedRatio', () => {
  it('takes the ratio within each round, so a round where the machine ran at half speed does not tip it', () => {
    // Round 2 ran at half speed for both: the ratio of the medians (1000/2000 → 0.5 vs 900/1800)
    // would pair rounds taken at different speeds; the paired ratios stay 0.9.
    const a = [{ v: 900 }, { v: 450 }, { v: 1800 }];
    const b = [{ v: 1000 }, { v: 500 }, { v: 2000 }];
    const r = pairedRatio(a, b, (x) => x.v)!;
    expect(r.median).toBeCloseTo(0.9, 10);
    expect([r.low, r.high, r.rounds]).toEqual([0.9, 0.9, 3]);
  });

  it('keeps the middle round of an odd count and averages the middle two of an even one, with the range', () => {
    const b = [1, 1, 1, 1].map((v) => ({ v }));
    expect(pairedRatio([{ v: 1.5 }, { v: 40 }, { v: 1.2 }], b, (x) => x.v)).toEqual({ median: 1.5, low: 1.2, high: 40, rounds: 3 });
    expect(pairedRatio([{ v: 1 }, { v: 2 }, { v: 3 }, { v: 10 }], b, (x) => x.v)).toEqual({ median: 2.5, low: 1, high: 10, rounds: 4 });
  });

  it('skips rounds one side lacks or could not measure, and says undefined when none is left', () => {
    expect(pairedRatio([{ v: 2 }, { v: NaN }, { v: 3 }], [{ v: 1 }, { v: 1 }], (x) => x.v)).toEqual({ median: 2, low: 2, high: 2, rounds: 1 });
    expect(pairedRatio([], [{ v: 1 }], (x: { v: number }) => x.v)).toBeUndefined();
  });
});

describe('formatRatio', () => {
  it('prints the median with its range, the range only where there were several rounds', () => {
    expect(formatRatio({ median: 1.616, low: 1.21, high: 23.82, rounds: 7 }, '×')).toBe('1.62× (1.21–23.82)');
    expect(formatRatio({ median: 0.8, low: 0.8, high: 0.8, rounds: 1 })).toBe('0.80');
    expect(formatRatio(undefined)).toBe('—');
  });
});

describe('bracketedRatio', () => {
  it('compares with the geometric mean of the readings before and after, so a steady drift cancels', () => {
    // The machine sped up across each round: 1000 before, 1440 after, the contender at 1200 between
    // them reads as equal (1.00), where against the first reading alone it would read 1.20.
    const r = bracketedRatio([{ v: 1200 }, { v: 600 }], [{ v: 1000 }, { v: 500 }], [{ v: 1440 }, { v: 720 }], (x) => x.v)!;
    expect(r.median).toBeCloseTo(1, 10);
    expect(r.rounds).toBe(2);
  });

  it('uses the first reading alone in rounds without a second', () => {
    const r = bracketedRatio([{ v: 900 }, { v: 800 }], [{ v: 1000 }, { v: 1000 }], [{ v: 1000 }], (x) => x.v)!;
    expect([r.low, r.high]).toEqual([0.8, 0.9]);
    expect(bracketedRatio([{ v: 900 }], [{ v: 1000 }], undefined, (x) => x.v)!.median).toBeCloseTo(0.9, 10);
  });
});

describe('verdict', () => {
  const ratio = (median: number): PairedRatio => ({ median, low: median, high: median, rounds: 5 });

  it('meets or misses a target as the median says when the noise floor is closer to 1.00 than the margin', () => {
    expect(verdict(ratio(0.86), 0.8, 'at least', ratio(1.02))).toBe('met');
    expect(verdict(ratio(0.7), 0.8, 'at least', ratio(0.98))).toBe('NOT met');
    expect(verdict(ratio(1.41), 2, 'at most', ratio(1.2))).toBe('met');
    expect(verdict(ratio(2.3), 2, 'at most', ratio(0.97))).toBe('NOT met');
  });

  it('decides nothing where two equal servers read further apart than the median lies from the target', () => {
    // A run whose bare-again read 0.82 of bare: a 0.70 against 0.80 is within that noise; a 0.65 is not.
    expect(verdict(ratio(0.7), 0.8, 'at least', ratio(0.82))).toBe('not decided (noise floor)');
    expect(verdict(ratio(0.65), 0.8, 'at least', ratio(0.82))).toBe('NOT met');
    expect(verdict(ratio(0.9), 0.8, 'at least', ratio(1.21))).toBe('not decided (noise floor)');
    expect(verdict(ratio(2.23), 2, 'at most', ratio(0.88))).toBe('not decided (noise floor)');
  });

  it('judges by the median alone when the run had no noise floor', () => {
    expect(verdict(ratio(0.79), 0.8, 'at least', undefined)).toBe('NOT met');
    expect(verdict(ratio(1.3), 1.3, 'at most', undefined)).toBe('met');
  });
});
