import type { ManualClock } from '../../../shared/clock.ts';

/**
 * How long the code under test must leave the clock alone (no timer set, cleared or fired) before
 * the clock jumps: long enough for a loopback request (a platform call, a stubbed exchange) to
 * come back and set its next timer, short enough that minutes of timers pass in well under a second.
 */
const QUIET_MS = 40;

export interface ClockDriver {
  /** Stops moving the clock; resolves once the driver's loop has ended. */
  stop(): Promise<void>;
}

/**
 * Runs a flow test's virtual clock, as Temporal's test server skips time: whenever the platform,
 * the runtime and the stubs under it have gone quiet, the clock jumps to the next timer due (a
 * nack delay ending, a lease TTL, an http-client timeout, a long poll's window, a stub's delay)
 * and fires it, until nothing is due before `end`; then it stands at `end`. What a timer starts
 * runs in real time before the next jump, so the order of events is the order of their due times.
 */
export function driveClock(clock: ManualClock, end: number): ClockDriver {
  let changedAt = performance.now();
  const unsubscribe = clock.onChange(() => (changedAt = performance.now()));
  let running = true;
  const loop = (async () => {
    while (running) {
      await new Promise((resolve) => setTimeout(resolve, QUIET_MS / 4));
      if (!running || performance.now() - changedAt < QUIET_MS) continue;
      const due = clock.nextDue();
      if (due !== undefined && due <= end) clock.fireNext();
      else if (clock.now() < end) await clock.advance(end - clock.now());
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      unsubscribe();
    },
  };
}
