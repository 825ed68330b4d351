import type { Page } from '@playwright/test';

export interface FrameStats {
  frames: number;
  p95: number;
  max: number;
}

/**
 * Starts recording frame times in the page, from requestAnimationFrame timestamps (the
 * Performance API clock), so a load test reads the page's own frames, not Playwright's round trips.
 */
export async function recordFrameTimes(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { frameTimes: number[] };
    // A new recording ends the one before: its loop stops at its next frame.
    const times: number[] = [];
    w.frameTimes = times;
    let last = performance.now();
    const tick = (now: number): void => {
      if (w.frameTimes !== times) return;
      times.push(now - last);
      last = now;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

/** The frames recorded so far (the first five, the page settling, left out): count, p95 and the longest. */
export function frameStats(page: Page): Promise<FrameStats> {
  return page.evaluate(() => {
    const times = (window as unknown as { frameTimes: number[] }).frameTimes.slice(5).sort((a, b) => a - b);
    return { frames: times.length, p95: times[Math.floor(times.length * 0.95)], max: times[times.length - 1] };
  });
}
