import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../shared/clock.ts';
import type { PausedRunView } from '../../../shared/debugger-types.ts';
import { startPlatformServer } from '../../platform/index.ts';
import { runtimeOn, until } from '../services/testing/runtime-on-platform.ts';
import { DebugSession } from './debug-session.ts';

let dataDir: string;
beforeAll(() => void (dataDir = mkdtempSync(join(tmpdir(), 'flow-queue-hold-'))));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('a queue- or topic-sourced run paused in the debugger', () => {
  it('holds its message past the ack deadline (no redelivery), and it is acked once the run goes on', async () => {
    // Platform and runtime on one clock the test moves: minutes of deadline pass without waiting.
    const clock = new ManualClock();
    const platform = await startPlatformServer({ dataDir: join(dataDir, 'p'), clock, features: { queues: { pollTimeoutSeconds: 2, ackDeadlineSeconds: 2 } } });
    try {
      const r = await runtimeOn(platform, `flows:\n  work:\n    workers: 1\n    source: {type: queue, subject: held}\n    steps:\n      - set: {body: 'body.n * 2'}\n`, { clock });
      const runs: unknown[] = [];
      r.runtime.traces.add({ emit: (e) => void (e.kind === 'run' && runs.push(e.outcome)) });
      const session = new DebugSession();
      const detach = session.attach(r.runtime);
      const paused: PausedRunView[] = [];
      session.listen({ paused: (p) => void paused.push(p) });
      session.setBreakpoints([{ id: 1, step: 'flows.work.steps[0]' }]);
      const deliveries: number[] = [];
      const stop = platform.events.subscribe((e) => (e.type === 'queue.deliver' || e.type === 'queue.redeliver') && e.subject === 'held' && deliveries.push(e.deliveryCount));
      await r.services.queues.publish('held', { n: 21 });
      await until(() => paused.length === 1, 10_000, 'the pause');
      expect(paused[0].message.headers).toBeDefined();
      // Five times the 2 s deadline, a second at a time: each extension keeps it in flight.
      for (let i = 0; i < 10; i++) await clock.advance(1000);
      expect((await platform.inspect.queues.counts()).find((c) => c.subject === 'held')).toMatchObject({ waiting: 0, inFlight: 1 });
      expect(deliveries).toEqual([1]);
      session.resume(paused[0].thread, 'continue', 'test');
      await until(async () => (await platform.inspect.queues.counts()).every((c) => c.subject !== 'held' || c.inFlight + c.waiting === 0), 10_000, 'the ack');
      stop();
      expect(runs).toEqual(['completed']);
      expect(deliveries).toEqual([1]);
      detach();
      await r.stop();
    } finally {
      await platform.close();
    }
  });
  it('holds its topic delivery past the subscription’s ack deadline (no redelivery), and it is acked once the run goes on', async () => {
    const clock = new ManualClock();
    const platform = await startPlatformServer({ dataDir: join(dataDir, 't'), clock, features: { topics: { pollTimeoutSeconds: 2, ackDeadlineSeconds: 2 } } });
    try {
      const r = await runtimeOn(platform, `flows:\n  work:\n    workers: 2\n    source: {type: topic, subject: held}\n    steps:\n      - set: {body: 'body.n * 2'}\n`, { clock });
      const runs: unknown[] = [];
      r.runtime.traces.add({ emit: (e) => void (e.kind === 'run' && runs.push(e.outcome)) });
      const session = new DebugSession();
      const detach = session.attach(r.runtime);
      const paused: PausedRunView[] = [];
      session.listen({ paused: (p) => void paused.push(p) });
      session.setBreakpoints([{ id: 1, step: 'flows.work.steps[0]' }]);
      const deliveries: string[][] = [];
      const acks: string[] = [];
      const stop = platform.events.subscribe((e) => {
        if (e.type === 'topic.deliver' && e.subject === 'held') deliveries.push(e.messageIds);
        if (e.type === 'topic.ack' && e.subject === 'held') acks.push(e.cursor);
      });
      await r.services.topics.publish('held', { n: 21 });
      await until(() => paused.length === 1, 10_000, 'the pause');
      // Five times the 2 s deadline, a second at a time, with a worker free to receive a redelivery:
      // each extension keeps the message with this run.
      for (let i = 0; i < 10; i++) await clock.advance(1000);
      expect(deliveries).toHaveLength(1);
      session.resume(paused[0].thread, 'continue', 'test');
      await until(() => acks.length === 1, 10_000, 'the ack');
      expect(acks).toEqual(deliveries[0]);
      for (let i = 0; i < 3; i++) await clock.advance(1000);
      stop();
      expect(runs).toEqual(['completed']);
      expect(deliveries).toHaveLength(1);
      detach();
      await r.stop();
    } finally {
      await platform.close();
    }
  });
});
