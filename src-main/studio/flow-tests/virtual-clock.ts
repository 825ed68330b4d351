import { parseCron } from '../../runtime/index.ts';

/**
 * The ticks a schedule source would fire between `start` and `start + advance`, computed on a
 * virtual clock: a test of a flow that runs every hour takes milliseconds. `schedule` is what the
 * source describes itself as: `every <ms> ms`, or a cron expression.
 */
export function scheduleTicks(schedule: string, timezone: 'utc' | 'local' | undefined, start: number, advanceMs: number | undefined): number[] {
  const interval = /^every (\d+) ms$/.exec(schedule);
  const next = interval ? (t: number) => t + Number(interval[1]) : (t: number) => parseCron(schedule, timezone ?? 'utc').next(new Date(t)).getTime();
  // Without an advance the test sees the first tick only.
  const end = advanceMs === undefined ? undefined : start + advanceMs;
  const ticks: number[] = [];
  for (let t = next(start); ticks.length < 1000; t = next(t)) {
    if (end !== undefined && t > end) break;
    ticks.push(t);
    if (end === undefined) break;
  }
  return ticks;
}
