import { describe, expect, it, vi } from 'vitest';
import { ManualClock, sleepOn, systemClock } from './clock.ts';

describe('ManualClock', () => {
  it('fires timers in due order (ties in the order set), each at its own due time, and only while advanced', async () => {
    const clock = new ManualClock(1000);
    const fired: string[] = [];
    clock.setTimeout(() => fired.push(`b@${clock.now()}`), 20);
    clock.setTimeout(() => fired.push(`a@${clock.now()}`), 10);
    clock.setTimeout(() => fired.push(`c@${clock.now()}`), 20);
    const cleared = clock.setTimeout(() => fired.push('cleared'), 5);
    clock.clearTimeout(cleared);
    expect(fired).toEqual([]);
    await clock.advance(15);
    expect(fired).toEqual(['a@1010']);
    expect(clock.now()).toBe(1015);
    await clock.advance(100);
    expect(fired).toEqual(['a@1010', 'b@1020', 'c@1020']);
    expect(clock.now()).toBe(1115);
    expect(clock.pending).toBe(0);
  });

  it('fires a timer that a timer sets when it falls due within the same advance', async () => {
    const clock = new ManualClock(0);
    const fired: number[] = [];
    const every = (): void => {
      fired.push(clock.now());
      clock.setTimeout(every, 100);
    };
    clock.setTimeout(every, 100);
    await clock.advance(350);
    expect(fired).toEqual([100, 200, 300]);
    expect(clock.nextDue()).toBe(400);
  });

  it('sleeps on the clock and wakes early, rejecting, when the signal aborts', async () => {
    const clock = new ManualClock(0);
    let woke = false;
    const sleeping = sleepOn(clock, 1000).then(() => (woke = true));
    await clock.advance(999);
    expect(woke).toBe(false);
    await clock.advance(1);
    await sleeping;
    expect(woke).toBe(true);
    const controller = new AbortController();
    const aborted = sleepOn(clock, 1000, controller.signal);
    controller.abort(new Error('stopped'));
    await expect(aborted).rejects.toThrow('stopped');
    expect(clock.pending).toBe(0);
  });

  it('drives itself to the next timer once nothing happened for the quiet window, and stops at the end', async () => {
    const clock = new ManualClock(0);
    const fired: number[] = [];
    clock.setTimeout(() => fired.push(clock.now()), 60_000);
    clock.setTimeout(() => fired.push(clock.now()), 120_000);
    clock.setTimeout(() => fired.push(clock.now()), 600_000);
    const driver = clock.drive(300_000, 10);
    await vi.waitFor(() => expect(clock.now()).toBe(300_000), { timeout: 5000, interval: 5 });
    await driver.stop();
    expect(fired).toEqual([60_000, 120_000]);
    expect(clock.nextDue()).toBe(600_000);
  });
});

describe('systemClock', () => {
  it('reads the globals at each call, so vitest fake timers move it', async () => {
    vi.useFakeTimers({ now: new Date('2026-01-05T09:00:00Z'), toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    try {
      let fired = false;
      systemClock.setTimeout(() => (fired = true), 5000);
      await vi.advanceTimersByTimeAsync(5000);
      expect(fired).toBe(true);
      expect(systemClock.now()).toBe(Date.parse('2026-01-05T09:00:05Z'));
    } finally {
      vi.useRealTimers();
    }
  });
});
