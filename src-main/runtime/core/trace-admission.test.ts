import { describe, expect, it } from 'vitest';
import { DEFAULT_SATURATED_BUDGET, DEFAULT_SATURATED_RATE, TraceAdmission, processCpuMs, saturatedBudgetFromEnv, saturatedRateFromEnv } from './trace-admission.ts';

/** The budget the arithmetic below is written for (the default is smaller; see DEFAULT_SATURATED_BUDGET). */
const BUDGET = 0.03;

/**
 * An admission whose clock, load and CPU time the test sets: `at(ms, busy)` moves time on with
 * that load behind it, and the process's CPU with it (all of it, unless `cpuMs` says how much).
 */
function controlled(rate = 200, burst?: number, budget = BUDGET) {
  let now = 0;
  let busy = 0;
  let cpu = 0;
  const admission = new TraceAdmission({ saturatedRate: rate, burst, budget, windowMs: 100, now: () => now, meter: () => busy, cpu: () => cpu });
  return {
    admission,
    at(ms: number, load: number, cpuMs = ms) {
      now = ms;
      busy = load;
      cpu = cpuMs;
    },
    admitted(n: number): number {
      let yes = 0;
      for (let i = 0; i < n; i++) if (admission.admit()) yes++;
      return yes;
    },
  };
}

describe('trace admission', () => {
  it('traces every run while the thread has time to spare, however many', () => {
    const c = controlled();
    c.at(0, 0.2);
    expect(c.admitted(5000)).toBe(5000);
    c.at(100, 0.85);
    expect(c.admitted(5000)).toBe(5000);
    expect(c.admission.shed).toBe(0);
    expect(c.admission.saturated).toBe(false);
  });

  it('traces at most the rate while saturated and counts the rest: a quarter second at once, then the rate', () => {
    const c = controlled(200);
    c.at(100, 0.97);
    // The bucket holds a quarter second of 200 a second.
    expect(c.admitted(1000)).toBe(50);
    expect(c.admission.shed).toBe(950);
    expect(c.admission.saturated).toBe(true);
    // 100 ms later: 20 more.
    c.at(200, 1);
    expect(c.admitted(1000)).toBe(20);
    expect(c.admission.shed).toBe(1930);
  });

  it('traces whole bursts of a rate below its own: a batch of queue messages every 100 ms', () => {
    const c = controlled(1000);
    for (let w = 1; w <= 100; w++) {
      c.at(w * 100, 1);
      expect(c.admitted(80)).toBe(80);
    }
    expect(c.admission.shed).toBe(0);
  });

  it('holds the burst it is given: a batch that large passes whole as saturation begins, then the rate', () => {
    // The studio's: 250 a second, with a batch of 1000 at once traced whole.
    const c = controlled(250, 1000);
    c.at(100, 1);
    expect(c.admitted(1000)).toBe(1000);
    expect(c.admission.shed).toBe(0);
    c.at(200, 1);
    expect(c.admitted(1000)).toBe(25);
    // A long calm spell refills it to the burst, never beyond.
    c.at(60_000, 0.1);
    c.admitted(1);
    c.at(60_100, 1);
    expect(c.admitted(5000)).toBe(1000);
    expect(c.admission.burst).toBe(1000);
    // None while saturated means none, whatever the burst.
    const none = controlled(0, 1000);
    none.at(100, 1);
    expect(none.admitted(10)).toBe(0);
  });

  it('traces every run again from the first window the load is gone', () => {
    const c = controlled();
    c.at(100, 1);
    c.admitted(500);
    // The next request comes seconds later: the time since was mostly idle.
    c.at(5000, 0.01);
    expect(c.admitted(500)).toBe(500);
    expect(c.admission.saturated).toBe(false);
  });

  it('below the rate nothing is shed even when saturated', () => {
    const c = controlled(200);
    for (let w = 1; w <= 50; w++) {
      c.at(w * 100, 1);
      expect(c.admitted(20)).toBe(20);
    }
    expect(c.admission.shed).toBe(0);
  });

  it('stays saturated through one window with a gap in the load; two in a row, or a quiet spell, end it', () => {
    const c = controlled(200);
    c.at(100, 1);
    expect(c.admitted(100)).toBe(50);
    c.at(200, 0.6);
    expect(c.admitted(100)).toBe(20);
    expect(c.admission.saturated).toBe(true);
    c.at(300, 0.95);
    c.admitted(100);
    c.at(400, 0.5);
    c.admitted(100);
    c.at(500, 0.5);
    expect(c.admitted(100)).toBe(100);
    expect(c.admission.saturated).toBe(false);
    c.at(600, 1);
    c.admitted(100);
    // The next request a second later: the quiet spell between ends it at once.
    c.at(1600, 0.05);
    expect(c.admitted(100)).toBe(100);
  });

  it('keeps deciding within a window until it ends', () => {
    const c = controlled(200);
    c.at(100, 1);
    expect(c.admitted(100)).toBe(50);
    c.at(150, 0);
    // Still the same saturated window (its load was measured when it began): 50 ms of the rate.
    expect(c.admitted(100)).toBe(10);
  });

  it('"all" traces every run whatever the load; 0 traces none while saturated', () => {
    const all = controlled(Infinity);
    all.at(100, 1);
    expect(all.admitted(10_000)).toBe(10_000);
    const none = controlled(0);
    none.at(100, 1);
    expect(none.admitted(10)).toBe(0);
    none.at(200, 0.1);
    expect(none.admitted(10)).toBe(0);
    none.at(300, 0.1);
    expect(none.admitted(10)).toBe(10);
  });

  it('says once when it starts shedding, not every saturated window', () => {
    const c = controlled();
    let said = 0;
    c.admission.onSaturated = () => said++;
    for (let w = 1; w <= 10; w++) {
      c.at(w * 100, 1);
      c.admitted(100);
    }
    expect(said).toBe(1);
    c.at(1100, 0.2);
    c.admitted(1);
    c.at(1200, 0.2);
    c.admitted(1);
    c.at(1300, 1);
    c.admitted(1);
    expect(said).toBe(2);
  });

  it("while saturated, traces only while tracing's measured work stays within its share of the CPU", () => {
    // 3%: 60 ms of tracing may be owed; each ms of CPU pays off 0.03 ms of it.
    const c = controlled(1000);
    expect(c.admission.budget).toBe(BUDGET);
    c.at(100, 1);
    // The burst passes whole as saturation begins, whatever it costs...
    expect(c.admitted(250)).toBe(250);
    c.admission.charge(250 * 0.4);
    // ...and its cost is owed: with 100 ms owed, no more runs until it is paid down to 60.
    c.at(200, 1);
    expect(c.admitted(100)).toBe(0);
    expect(c.admission.shed).toBe(100);
    // 40 ms to pay off at 3% of the CPU: 1333 ms of it.
    c.at(1000, 1);
    expect(c.admitted(100)).toBe(0);
    c.at(1500, 1);
    expect(c.admitted(100)).toBe(100);
    // Runs this dear (0.4 ms each) are then traced at the budget's pace, not the rate's: 75 a second.
    c.admission.charge(100 * 0.4);
    let traced = 0;
    for (let ms = 1600; ms <= 11_500; ms += 100) {
      c.at(ms, 1);
      const n = c.admitted(100);
      c.admission.charge(n * 0.4);
      traced += n;
    }
    expect(traced).toBeGreaterThanOrEqual(70 * 10 - 150);
    expect(traced).toBeLessThanOrEqual(75 * 10 + 150);
    expect(c.admission.chargedMs).toBeCloseTo((250 + 100 + traced) * 0.4, 6);
  });

  it('pays the debt off with the CPU the process got, not the clock: a thread sharing its core traces less', () => {
    const c = controlled(1000);
    c.at(100, 1);
    c.admitted(250);
    c.admission.charge(150);
    // Ten seconds on the clock, but only 2 s of CPU (a fifth of a core): 60 ms paid off, 90 still owed.
    c.at(10_100, 1, 2_100);
    expect(c.admitted(10)).toBe(0);
    c.at(20_100, 1, 4_100);
    expect(c.admitted(10)).toBe(10);
  });

  it('owes nothing for tracing done with time to spare, and counts it all the same', () => {
    const c = controlled(1000);
    c.at(100, 0.2);
    c.admitted(100);
    c.admission.charge(500);
    // Saturated from here: the calm spell's half second of tracing is not held against it.
    c.at(200, 1);
    expect(c.admitted(250)).toBe(250);
    c.at(300, 1);
    expect(c.admitted(100)).toBe(100);
    expect(c.admission.chargedMs).toBe(500);
  });

  it('"all" traces every run saturated or not, whatever tracing costs', () => {
    const c = controlled(Infinity);
    c.at(100, 1);
    c.admission.charge(10_000);
    c.at(200, 1);
    expect(c.admitted(10_000)).toBe(10_000);
    expect(c.admission.shed).toBe(0);
  });

  it('a burst as saturation begins passes whole again after the load was gone and the debt paid', () => {
    const c = controlled(250, 1000);
    c.at(100, 1);
    expect(c.admitted(1000)).toBe(1000);
    c.admission.charge(1000 * 0.2);
    c.at(200, 1);
    expect(c.admitted(100)).toBe(0);
    // A minute of calm: the debt no longer grows, the bucket refills, and the next burst passes whole.
    c.at(60_000, 0.1);
    c.admitted(1);
    c.at(60_100, 1);
    expect(c.admitted(1000)).toBe(1000);
  });

  it("allows 1% of the CPU for tracing's measured work by default, as docs/deploying.md says", () => {
    expect(new TraceAdmission().budget).toBe(DEFAULT_SATURATED_BUDGET);
    expect(DEFAULT_SATURATED_BUDGET).toBe(0.01);
  });

  it("reads the process's CPU time by default", () => {
    // Busy until the clock has moved 10 ms: on a loaded machine the process gets only part of the
    // wall time, so a fixed wall-clock loop could see less. A clock that stood still would spin to
    // the 10 s bound instead.
    const before = processCpuMs();
    const bound = performance.now() + 10_000;
    while (processCpuMs() - before < 10 && performance.now() < bound) {
      // Busy: CPU time passes.
    }
    expect(processCpuMs() - before).toBeGreaterThanOrEqual(10);
    expect(performance.now()).toBeLessThan(bound);
  });

  it('measures the real event loop by default: a busy loop saturates it, an idle one does not', async () => {
    const admission = new TraceAdmission({ windowMs: 20, saturatedRate: 0 });
    admission.admit();
    const until = performance.now() + 30;
    while (performance.now() < until) {
      // Busy: no turn of the event loop.
    }
    expect(admission.admit()).toBe(false);
    expect(admission.saturated).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(admission.admit()).toBe(true);
    expect(admission.saturated).toBe(false);
  });
});

describe('FLOW_TRACE_SATURATED_RATE', () => {
  it('reads a rate, "all", or the default', () => {
    expect(saturatedRateFromEnv({})).toBeUndefined();
    expect(new TraceAdmission().saturatedRate).toBe(DEFAULT_SATURATED_RATE);
    expect(saturatedRateFromEnv({ FLOW_TRACE_SATURATED_RATE: ' 50 ' })).toBe(50);
    expect(saturatedRateFromEnv({ FLOW_TRACE_SATURATED_RATE: 'ALL' })).toBe(Infinity);
    expect(saturatedRateFromEnv({ FLOW_TRACE_SATURATED_RATE: '0' })).toBe(0);
  });

  it('refuses anything else, naming the variable and the value', () => {
    for (const bad of ['-1', '2.5', 'lots', '1e400']) {
      expect(() => saturatedRateFromEnv({ FLOW_TRACE_SATURATED_RATE: bad })).toThrow(`FLOW_TRACE_SATURATED_RATE must be a whole number of runs a second`);
      expect(() => saturatedRateFromEnv({ FLOW_TRACE_SATURATED_RATE: bad })).toThrow(`"${bad}"`);
    }
  });
});

describe('FLOW_TRACE_SATURATED_BUDGET', () => {
  it('reads a percent of the CPU, with or without %, as a share; unset leaves the default', () => {
    expect(saturatedBudgetFromEnv({})).toBeUndefined();
    expect(saturatedBudgetFromEnv({ FLOW_TRACE_SATURATED_BUDGET: ' ' })).toBeUndefined();
    expect(new TraceAdmission({ budget: undefined }).budget).toBe(DEFAULT_SATURATED_BUDGET);
    expect(saturatedBudgetFromEnv({ FLOW_TRACE_SATURATED_BUDGET: '0.5' })).toBe(0.005);
    expect(saturatedBudgetFromEnv({ FLOW_TRACE_SATURATED_BUDGET: ' 2% ' })).toBe(0.02);
    expect(saturatedBudgetFromEnv({ FLOW_TRACE_SATURATED_BUDGET: '0' })).toBe(0);
    expect(saturatedBudgetFromEnv({ FLOW_TRACE_SATURATED_BUDGET: '100' })).toBe(1);
  });

  it('refuses anything else, naming the variable and the value', () => {
    for (const bad of ['-1', '101', 'lots', '1e-3', '0x10', '.5', '5%%']) {
      expect(() => saturatedBudgetFromEnv({ FLOW_TRACE_SATURATED_BUDGET: bad })).toThrow('FLOW_TRACE_SATURATED_BUDGET must be a percent of the CPU from 0 to 100');
      expect(() => saturatedBudgetFromEnv({ FLOW_TRACE_SATURATED_BUDGET: bad })).toThrow(`"${bad}"`);
    }
  });

  it('at 0 traces the burst saturation begins with, then nothing while its work is owed; the default goes on', () => {
    const runs = (budget: number): boolean[] => {
      const c = controlled(1000, 3, budget);
      const admitted: boolean[] = [];
      const next = (): void => {
        const traced = c.admission.admit();
        if (traced) c.admission.charge(0.05);
        admitted.push(traced);
      };
      c.at(100, 1);
      for (let i = 0; i < 3; i++) next();
      // Tokens for more, so only the budget can refuse them.
      c.at(110, 1);
      next();
      // Seconds of CPU later: a budget of 0 pays nothing off.
      c.at(2110, 1);
      next();
      return admitted;
    };
    expect(runs(0)).toEqual([true, true, true, false, false]);
    expect(runs(DEFAULT_SATURATED_BUDGET)).toEqual([true, true, true, true, true]);
  });
});
