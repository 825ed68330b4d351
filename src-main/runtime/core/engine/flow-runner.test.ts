import { describe, expect, it } from 'vitest';
import { Chain } from './chain.ts';
import { FlowRunner } from './flow-runner.ts';
import { Message } from '../message.ts';
import { TraceHub } from '../trace.ts';

/** A flow whose only step waits until the test releases it, counting how many run at once. */
function gatedFlow(workers: number, buffer: number) {
  let running = 0;
  let peak = 0;
  const gates: Array<() => void> = [];
  const chain = new Chain([
    {
      path: 'flows.t.steps[0]',
      type: 'gate',
      block: {
        async process(msg) {
          running++;
          peak = Math.max(peak, running);
          await new Promise<void>((r) => gates.push(r));
          running--;
          return msg;
        },
      },
    },
  ]);
  const runner = new FlowRunner({ name: 't', steps: chain, workers, buffer, traces: new TraceHub(), identity: { deploymentId: 'd', instanceId: 'i' } });
  return { runner, gates, stats: () => ({ running, peak }) };
}

/** One turn of the event loop: every promise job the runner queued has run (it sets no timers). */
const tick = () => new Promise((r) => setImmediate(r));

describe('a flow with workers and a buffer', () => {
  it('runs at most `workers` messages at once, queues `buffer` more, and holds back the rest', async () => {
    const { runner, gates, stats } = gatedFlow(2, 1);
    const results = Array.from({ length: 5 }, (_, i) => runner.submit(new Message(i)));
    let ready = false;
    void runner.ready().then(() => (ready = true));
    await tick();
    expect(stats().running).toBe(2);
    expect(runner.inFlight).toBe(5);
    expect(ready).toBe(false);
    for (let round = 0; round < 10; round++) {
      expect(stats().running).toBeLessThanOrEqual(2);
      gates.splice(0).forEach((g) => g());
      await tick();
    }
    const done = await Promise.all(results);
    expect(done.map((r) => r.message.body)).toEqual([0, 1, 2, 3, 4]);
    expect(stats().peak).toBe(2);
    expect(ready).toBe(true);
    await runner.idle();
    expect(runner.inFlight).toBe(0);
  });

  it('reports a step that throws as a failed outcome naming the step, without rejecting', async () => {
    const chain = new Chain([{ path: 'flows.t.steps[0]', type: 'boom', block: { process: () => { throw new Error('kaput'); } } }]);
    const runner = new FlowRunner({ name: 't', steps: chain, workers: 1, buffer: 0, traces: new TraceHub(), identity: { deploymentId: 'd', instanceId: 'i' } });
    const result = await runner.submit(new Message());
    expect(result).toMatchObject({ outcome: 'failed', error: { message: 'kaput', step: 'flows.t.steps[0]' } });
  });
});
