import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../shared/clock.ts';
import { startPlatformServer, type PlatformServer } from '../../../platform/index.ts';
import type { TraceRecord } from '../../core/trace.ts';
import { runtimeOn, until, type RuntimeOnPlatform, type RuntimeOptions } from '../../services/testing/runtime-on-platform.ts';

let dataDir: string;
let platform: PlatformServer;
const running: RuntimeOnPlatform[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'flow-queue-'));
  platform = await startPlatformServer({ dataDir, features: { queues: { pollTimeoutSeconds: 2 } } });
});
afterEach(async () => {
  for (const r of running.splice(0)) await r.stop();
});
afterAll(async () => {
  await platform.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function start(yaml: string, o: RuntimeOptions = {}): Promise<RuntimeOnPlatform> {
  const r = await runtimeOn(platform, yaml, o);
  running.push(r);
  return r;
}

/** Waits until the group has received on the subject once (it exists on the platform from then on). */
const receiving = (subject: string, group: string) =>
  until(async () => (await platform.inspect.queues.counts()).some((g) => g.subject === subject && g.group === group), 5000, `${group} receiving on ${subject}`);

/** Waits until no group of the subject holds a message (waiting, in flight or delayed): all were acked. */
const drained = (subject: string) =>
  until(
    async () => (await platform.inspect.queues.counts()).every((g) => g.subject !== subject || g.waiting + g.inFlight + g.delayed === 0),
    10_000,
    `every message on ${subject} acked`,
  );

/** Bodies of the runs a runtime completed, seen through its trace hub as a studio would (runtimeOn traces every run). */
function completedBodies(r: RuntimeOnPlatform, flow: string): unknown[] {
  const seen: unknown[] = [];
  r.runtime.traces.add({
    snapshots: true,
    emit: (e: TraceRecord) => {
      if (e.kind === 'run' && e.flow === flow && e.outcome === 'completed') seen.push((e.input as { body: unknown }).body);
    },
  });
  return seen;
}

const publisher = `flows:
  send:
    steps:
      - queue-publish: {subject: '\${SUBJECT}', headers: {tenant: '"blue"'}}
env:
  SUBJECT: {default: work}
`;

describe('the queue source', () => {
  it('processes 1,000 messages through 4 workers exactly once each', async () => {
    const consumer = await start(`flows:\n  work:\n    workers: 4\n    source: {type: queue, subject: bulk}\n    steps:\n      - set: {body: 'body.n'}\n`);
    const seen = completedBodies(consumer, 'work');
    const sender = await start(publisher, { env: { SUBJECT: 'bulk' }, instanceId: 'sender' });
    const deliveries: number[] = [];
    const stop = platform.events.subscribe((e) => e.type === 'queue.deliver' && e.subject === 'bulk' && deliveries.push(e.deliveryCount));
    for (let n = 0; n < 1000; n++) await sender.runtime.run('send', { n });
    await until(() => seen.length >= 1000, 60_000, '1,000 completed runs');
    // Nothing left stored means nothing can be delivered again: every message was acked.
    await drained('bulk');
    stop();
    expect(seen).toHaveLength(1000);
    expect(new Set(seen.map((b) => (b as { n: number }).n)).size).toBe(1000);
    expect(deliveries.every((c) => c === 1)).toBe(true);
    await until(() => consumer.runtime.definition.flows.get('work')!.runner.inFlight === 0, 10_000, 'acks');
  }, 120_000); // 2,000 requests over loopback: a loaded machine needs minutes, an idle one seconds

  it('hands a failed message back and gets it again only after its nack delay', async () => {
    // Platform and runtime on one clock the test moves: the delay passes without waiting for it.
    const clock = new ManualClock();
    const own = await startPlatformServer({ dataDir: join(dataDir, 'nack-delay'), clock, features: { queues: { pollTimeoutSeconds: 2 } } });
    try {
      const r = await runtimeOn(own, `flows:
  flaky:
    source: {type: queue, subject: flaky, nackDelay: 1s}
    steps:
      # Fails on the first delivery only: the second reads an existing field.
      - set: {body: 'vars.deliveryCount > 1 ? body.n : body.missing'}
`, { clock });
      running.push(r);
      const attempts: number[] = [];
      r.runtime.traces.add({ emit: (e) => e.kind === 'run' && e.flow === 'flaky' && attempts.push(clock.now()) });
      const nacks: number[] = [];
      const stop = own.events.subscribe((e) => e.type === 'queue.nack' && e.subject === 'flaky' && nacks.push(e.delaySeconds));
      await r.services.queues.publish('flaky', { n: 1 });
      await until(() => nacks.length === 1, 10_000, 'the nack');
      expect(nacks).toEqual([1]);
      await clock.advance(900);
      // At 900 ms of the clock the platform still holds the message back; the attempt times below
      // (read from the same clock) show it came back no earlier than the delay.
      expect((await own.inspect.queues.counts()).find((c) => c.subject === 'flaky')).toMatchObject({ waiting: 0, inFlight: 0, delayed: 1 });
      expect(attempts).toHaveLength(1);
      await clock.advance(200);
      await until(() => attempts.length >= 2, 10_000, 'the redelivery');
      stop();
      expect(attempts[1] - attempts[0]).toBeGreaterThanOrEqual(1000);
      await r.stop();
      running.splice(running.indexOf(r), 1);
    } finally {
      await own.close();
    }
  });

  it('shares a subject between the replicas of a deployment while another deployment sees every message', async () => {
    const flow = `flows:\n  work:\n    workers: 2\n    source: {type: queue, subject: shared}\n    steps: []\n`;
    const a1 = await start(flow, { deploymentId: 'orders', instanceId: 'a1' });
    const a2 = await start(flow, { deploymentId: 'orders', instanceId: 'a2' });
    const b1 = await start(flow, { deploymentId: 'audit', instanceId: 'b1' });
    const [seenA1, seenA2, seenB1] = [a1, a2, b1].map((r) => completedBodies(r, 'work'));
    // A consumer group starts with the messages published after its first receive.
    await receiving('shared', 'orders');
    await receiving('shared', 'audit');
    for (let n = 0; n < 60; n++) await a1.services.queues.publish('shared', { n });
    await until(() => seenA1.length + seenA2.length >= 60 && seenB1.length >= 60, 10_000, 'both deployments');
    await drained('shared');
    const ids = (list: unknown[]) => list.map((b) => (b as { n: number }).n);
    expect(new Set([...ids(seenA1), ...ids(seenA2)]).size).toBe(60);
    expect(seenA1.length + seenA2.length).toBe(60);
    expect(seenA1.length).toBeGreaterThan(0);
    expect(seenA2.length).toBeGreaterThan(0);
    expect(new Set(ids(seenB1)).size).toBe(60);
  });

  it('carries headers, the correlation id and raw content from publisher to consumer', async () => {
    const consumer = await start(`flows:\n  work:\n    source: {type: queue, subject: carry}\n    steps: []\n`);
    const runs: TraceRecord[] = [];
    consumer.runtime.traces.add({ snapshots: true, emit: (e) => e.kind === 'run' && runs.push(e) });
    const sender = await start(publisher, { env: { SUBJECT: 'carry' } });
    await sender.runtime.definition.flows.get('send')!.runner.submit(
      new (await import('../../core/message.ts')).Message({ contentType: 'text/csv', rawData: 'a,b\n1,2\n' }, {}, 'corr-42'),
    );
    await until(() => runs.length === 1, 10_000, 'the delivery');
    expect(runs[0].correlationId).toBe('corr-42');
    expect(runs[0].input).toMatchObject({ body: { contentType: 'text/csv', rawData: 'a,b\n1,2\n' }, vars: { subject: 'carry', headers: { tenant: 'blue' }, deliveryCount: 1 } });
  });
});

describe('request/reply on a queue', () => {
  it('answers a request with the consuming flow’s final body', async () => {
    await start(`flows:\n  quote:\n    source: {type: queue, subject: quotes}\n    steps:\n      - set: {body: '{"sku": body.sku, "price": 9.5}'}\n`);
    const caller = await start(`flows:\n  ask:\n    steps:\n      - queue-request: {subject: quotes, timeout: 5s, resultVar: quote}\n`, { instanceId: 'caller' });
    await until(async () => (await caller.runtime.run('ask', { sku: 'x' })).outcome === 'completed', 10_000, 'a consumer polling');
    const result = await caller.runtime.run('ask', { sku: 'abc' });
    expect(result.message.vars.quote).toEqual({ sku: 'abc', price: 9.5 });
    expect(result.message.body).toEqual({ sku: 'abc' });
  });

  it('fails with the consumer’s error when its flow fails', async () => {
    await start(
      `flows:\n  quote:\n    source: {type: queue, subject: broken2}\n    steps:\n      - set: {body: 'body.missing.field'}\n`,
      { instanceId: 'broken2' },
    );
    const caller = await start(`flows:\n  ask:\n    steps:\n      - queue-request: {subject: broken2, timeout: 5s}\n`, { instanceId: 'caller' });
    await receiving('broken2', 'test-deployment');
    const result = await caller.runtime.run('ask', {});
    expect(result.outcome).toBe('failed');
    expect(result.error?.message).toMatch(/the flow consuming broken2 failed: .*missing/);
  });

  it('fails with 503 when nobody consumes the subject, and 504 when no reply comes in time', async () => {
    const caller = await start(`flows:\n  ask:\n    steps:\n      - queue-request: {subject: '\${SUBJECT}', timeout: 1s}\nenv:\n  SUBJECT: {default: nobody}\n`);
    const nobody = await caller.runtime.run('ask', {});
    expect(nobody.error?.message).toMatch(/queue request nobody: nobody is consuming "nobody" \(503\)/);

    // A consumer that receives but never answers; the reply timeout passes on a clock the test moves.
    const clock = new ManualClock();
    const own = await startPlatformServer({ dataDir: join(dataDir, 'reply-timeout'), clock });
    try {
      const silent = await runtimeOn(own, `flows:\n  ask:\n    steps:\n      - queue-request: {subject: silent, timeout: 1s}\n`, { instanceId: 'asker', clock });
      running.push(silent);
      const received = silent.services.queues.receive('silent', { waitMs: 3000, maxMessages: 1 });
      await until(async () => (await own.inspect.queues.counts()).some((g) => g.subject === 'silent'), 10_000, 'the consumer receiving');
      const asked = clock.now();
      let answeredAt: number | undefined;
      const late = silent.runtime.run('ask', {}).finally(() => (answeredAt = clock.now()));
      expect(await received).toHaveLength(1); // the request is out, its timer set
      await clock.advance(999);
      expect(answeredAt).toBeUndefined();
      // Nothing the runtime or the platform waits on is due before the 1 s timeout: no answer can
      // come earlier, however long the machine takes to deliver one.
      expect(clock.nextDue()).toBeGreaterThanOrEqual(asked + 1000);
      await clock.advance(1);
      expect((await late).error?.message).toMatch(/queue request silent: no reply within 1 s \(504\)/);
      expect(answeredAt).toBe(asked + 1000);
      await silent.stop();
      running.splice(running.indexOf(silent), 1);
    } finally {
      await own.close();
    }
  });
});
