import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../shared/clock.ts';
import type { PausedRunView } from '../../../shared/debugger-types.ts';
import { until } from '../services/testing/runtime-on-platform.ts';
import { startYaml } from '../testing/load-yaml.ts';
import { DebugSession } from './debug-session.ts';

describe('a schedule run paused in the debugger', () => {
  it('keeps its tick: later ticks are skipped while it waits, the log says so once, and it goes on with its own scheduledAt', async () => {
    const clock = new ManualClock(Date.parse('2026-01-05T09:00:00Z'));
    const { runtime, logs } = await startYaml(`flows:\n  t:\n    source: {type: schedule, interval: 1s}\n    steps:\n      - log: {message: '"ran for " + vars.scheduledAt'}\n`, {}, clock);
    const session = new DebugSession();
    const detach = session.attach(runtime);
    try {
      const paused: PausedRunView[] = [];
      session.listen({ paused: (p) => void paused.push(p) });
      session.setBreakpoints([{ id: 1, step: 'flows.t.steps[0]', hitCondition: '1' }]);
      await clock.advance(1000);
      await until(() => paused.length === 1, 10_000, 'the pause');
      // Five more ticks come while the first run waits: none starts a run.
      for (let i = 0; i < 5; i++) await clock.advance(1000);
      expect(paused).toHaveLength(1);
      const told = logs.filter((l) => l.msg.startsWith('schedule ticks are skipped while the previous run is paused'));
      expect(told).toHaveLength(1);
      expect(told[0]).toMatchObject({ level: 'info', scheduledAt: '2026-01-05T09:00:02.000Z' });
      expect(logs.filter((l) => l.msg === 'schedule tick skipped: the previous run is still going')).toHaveLength(4);
      session.resume(paused[0].thread, 'continue', 'test');
      await until(() => logs.some((l) => l.msg.startsWith('ran for ')), 10_000, 'the run');
      expect(logs.filter((l) => l.msg.startsWith('ran for ')).map((l) => l.msg)).toEqual(['ran for 2026-01-05T09:00:01.000Z']);
      // The next tick runs again (the breakpoint was for the first hit only).
      await clock.advance(1000);
      await until(() => logs.filter((l) => l.msg.startsWith('ran for ')).length === 2, 10_000, 'the next run');
      expect(logs.filter((l) => l.msg.startsWith('ran for ')).at(-1)!.msg).toBe('ran for 2026-01-05T09:00:07.000Z');
    } finally {
      detach();
      await runtime.stop();
    }
  });
});
