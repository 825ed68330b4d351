import type { ClockTimer } from '../../../../shared/clock.ts';
import { implementSource } from '../../core/component.ts';
import { deepCopy, Message } from '../../core/message.ts';
import { runHolds } from '../../core/run-hold.ts';
import { runFailureLogFor } from '../../core/run-failure-log.ts';
import { parseCron, type CronSchedule } from './cron.ts';
import { scheduleSourceDef } from './schedule.def.ts';

export const scheduleSource = implementSource(
  scheduleSourceDef,
  (s, ctx) => {
    const cron: CronSchedule | undefined = s.cron !== undefined ? parseCron(s.cron, s.timezone) : undefined;
    // On the runtime's clock: a flow test's virtual clock fires an hourly schedule without waiting.
    const clock = ctx.host.clock;
    let timer: ClockTimer | undefined;
    let running = 0;
    let active = false;
    /** Runs of this schedule paused in a debugger, and whether a skipped tick said so since the last pause. */
    let paused = 0;
    let toldOfPause = false;
    // No caller gets a scheduled run's error: this line is the only place it shows.
    const failures = runFailureLogFor(ctx);
    const named = { source: 'schedule', schedule: s.cron ?? `every ${s.interval} ms` };

    const dueAfter = (t: number): number => (cron ? cron.next(new Date(t)).getTime() : t + s.interval!);

    const arm = (due: number): void => {
      if (!active) return;
      // Timers drift and clamp at ~24.8 days; re-arm toward the due time until it has come.
      const wait = Math.min(Math.max(0, due - clock.now()), 2 ** 31 - 1);
      timer = clock.setTimeout(() => (clock.now() + 1 < due ? arm(due) : fire(due)), wait);
    };

    const fire = (due: number): void => {
      arm(dueAfter(Math.max(due, clock.now())));
      if (running > 0 && !s.overlap) {
        const scheduledAt = new Date(due).toISOString();
        // Said once per pause where a person looks (the run's log): ticks wait for the one they let sit.
        if (paused > 0 && !toldOfPause) {
          toldOfPause = true;
          ctx.log.info('schedule ticks are skipped while the previous run is paused in a debugger; it keeps its tick', { scheduledAt });
        } else ctx.log.debug('schedule tick skipped: the previous run is still going', { scheduledAt });
        return;
      }
      running++;
      const msg = new Message(deepCopy(s.body), { scheduledAt: new Date(due).toISOString() });
      if (runHolds.watching !== 0) {
        runHolds.note(msg, {
          whilePaused: {
            paused: () => {
              paused++;
              toldOfPause = false;
            },
            resumed: () => void paused--,
          },
        });
      }
      const scheduledAt = new Date(due).toISOString();
      void ctx
        .submit(msg)
        .then((result) => {
          if (result.outcome === 'failed') failures?.report(result.error, { source: { ...named, scheduledAt }, next: 'dropped' });
        })
        .finally(() => {
          // A run that ends after stop is counted in the summary stop leaves for the last one.
          if (--running === 0 && !active) failures?.flush();
        });
    };

    return {
      async start() {
        active = true;
        arm(dueAfter(clock.now()));
      },
      async stop() {
        active = false;
        clock.clearTimeout(timer);
        if (running === 0) failures?.flush();
      },
      describe: () => ({ schedule: s.cron ?? `every ${s.interval} ms`, timezone: cron ? s.timezone : undefined }),
    };
  },
  (s) => {
    if ((s.interval === undefined) === (s.cron === undefined)) return ['a schedule needs exactly one of interval or cron'];
    if (s.interval !== undefined && s.interval <= 0) return ['interval must be longer than 0'];
    if (s.cron !== undefined) {
      try {
        parseCron(s.cron, s.timezone);
      } catch (err) {
        return [(err as Error).message];
      }
    }
    return [];
  },
);
