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

  it('answers synchronously when a worker is free and the blocks do, traced or not, error chain aside', async () => {
    const double = new Chain([{ path: 'flows.t.steps[0]', type: 'set', block: { process: (msg) => new Message((msg.body as number) * 2, msg.vars) } }]);
    const traces = new TraceHub();
    const runs: string[] = [];
    traces.add({
      emit: (e) => {
        if (e.kind === 'run') runs.push(e.outcome);
      },
    });
    const runner = new FlowRunner({ name: 't', steps: double, workers: 1, buffer: 0, traces, identity: { deploymentId: 'd', instanceId: 'i' } });
    const answer = runner.start(new Message(21));
    expect(answer).not.toBeInstanceOf(Promise);
    expect((answer as { message: Message }).message.body).toBe(42);
    expect(runner.inFlight).toBe(0);
    expect(runs).toEqual(['completed']);

    // A failure with an error chain runs the chain, which may wait: the answer is a promise.
    const boom = new Chain([{ path: 'flows.t.steps[0]', type: 'boom', block: { process: () => { throw new Error('kaput'); } } }]);
    const onError = new Chain([{ path: 'flows.t.onError[0]', type: 'set', block: { process: (msg) => new Message({ sorry: true }, msg.vars) } }]);
    const recovering = new FlowRunner({ name: 't', steps: boom, onError, workers: 1, buffer: 0, traces, identity: { deploymentId: 'd', instanceId: 'i' } });
    const recovered = recovering.start(new Message(1));
    expect(recovered).toBeInstanceOf(Promise);
    expect(await recovered).toMatchObject({ outcome: 'failed', message: { body: { sorry: true } }, error: { message: 'kaput' } });
    expect(recovering.inFlight).toBe(0);
  });

  it('waits its turn like submit while the workers are busy, and frees its worker when an async run ends', async () => {
    const { runner, gates, stats } = gatedFlow(1, 1);
    const first = runner.start(new Message('a'));
    const second = runner.start(new Message('b'));
    expect(first).toBeInstanceOf(Promise);
    expect(second).toBeInstanceOf(Promise);
    await tick();
    expect(stats().running).toBe(1);
    expect(runner.inFlight).toBe(2);
    for (let round = 0; round < 4; round++) {
      gates.splice(0).forEach((g) => g());
      await tick();
    }
    expect([(await first).message.body, (await second).message.body]).toEqual(['a', 'b']);
    expect(stats().peak).toBe(1);
    await runner.idle();
    expect(runner.inFlight).toBe(0);
  });
});
