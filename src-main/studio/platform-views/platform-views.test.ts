import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueueTimelineEvent } from '../../../shared/platform-views.ts';
import { startStudioHarness, type StudioHarness } from '../testing/studio-harness.ts';

const WORKER = `
connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  work:
    source: {type: queue, subject: jobs, nackDelay: 1s}
    steps:
      - set:
          vars:
            attempt: 'body.fail == true && vars.deliveryCount < 2 ? 1 / 0 : vars.deliveryCount'
  enqueue:
    source: {type: http, path: /enqueue, methods: [POST]}
    steps:
      - queue-publish: {subject: jobs}
  count:
    source: {type: http, path: /count, methods: [POST]}
    steps:
      - lock:
          name: '"counter"'
          ttl: 5s
          steps:
            - kv-get: {key: '"reports/count"', resultVar: count}
            - kv-put: {key: '"reports/count"', value: 'vars.count == null ? 1 : vars.count + 1'}
`;

let h: StudioHarness;
let routes: Record<string, string>;
beforeAll(async () => {
  h = await startStudioHarness({ worker: { 'worker.yaml': WORKER } });
  const state = await h.backend.api.startIntegration('worker');
  expect(state.status, state.reason).toBe('running');
  routes = Object.fromEntries(state.routes.map((r) => [r.flow, r.url]));
}, 30_000);
afterAll(() => h?.close());

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Resolves with Date.now() once it has moved past the time of the call. */
async function nextMillisecond(): Promise<number> {
  const from = Date.now();
  while (Date.now() <= from) await new Promise((r) => setTimeout(r, 1));
  return Date.now();
}

const steps = (timeline: QueueTimelineEvent[], messageId: string) =>
  timeline.filter((e) => e.messageId === messageId).map((e) => [e.action, e.deliveryCount ?? e.delaySeconds ?? null, e.redelivery ?? null, e.run?.outcome ?? null]);

describe('platform views over a running studio', () => {
  it('shows a failing message delivered, nacked with its delay, redelivered after it, and acked, each linked to its run', async () => {
    const api = h.backend.api;
    const published = await api.publishQueueMessage({ subject: 'jobs', body: { fail: true } });
    const [messageId] = published.messageIds;
    const view = await until(
      () => api.queueView({ subject: 'jobs' }),
      (v) => v.timeline.some((e) => e.messageId === messageId && e.action === 'ack' && e.run),
    );
    expect(steps(view.timeline, messageId)).toEqual([
      ['publish', null, null, null],
      ['deliver', 1, null, 'failed'],
      ['nack', 1, null, 'failed'],
      ['redeliver', 2, 'after nack delay', 'completed'],
      ['ack', null, null, 'completed'],
    ]);
    const nack = view.timeline.find((e) => e.action === 'nack')!;
    const redeliver = view.timeline.find((e) => e.action === 'redeliver')!;
    expect(redeliver.at - nack.at).toBeGreaterThanOrEqual(900);
    expect(view.timeline.find((e) => e.action === 'publish')).toMatchObject({ fromStudio: true, correlationId: published.correlationId });
    expect(view.groups).toContainEqual({ subject: 'jobs', group: 'worker', published: 1, delivered: 1, redelivered: 1, acked: 1, nacked: 1, waiting: 0, inFlight: 0, delayed: 0 });

    // Scrubbed back to the nack: the message waits out its delay, not yet redelivered.
    const atNack = await api.queueView({ subject: 'jobs', at: nack.at });
    expect(atNack.groups.find((g) => g.subject === 'jobs')).toMatchObject({ nacked: 1, redelivered: 0, acked: 0, delayed: 1, inFlight: 0, waiting: 0 });
    expect(atNack.timeline.at(-1)?.action).toBe('nack');

    const detail = await api.queueMessage('jobs', messageId);
    expect(detail?.runs.map((r) => [r.flow, r.outcome])).toEqual([
      ['work', 'failed'],
      ['work', 'completed'],
    ]);
    const run = await api.runDetail(detail!.runs[1].runId);
    expect(run?.summary.correlationId).toBe(published.correlationId);
  }, 20_000);

  it('links a message a flow published to the run that published it and the run that consumed it', async () => {
    const res = await fetch(routes.enqueue, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"job": 1}' });
    expect(res.status).toBe(200);
    const view = await until(
      () => h.backend.api.queueView({ subject: 'jobs' }),
      (v) => v.timeline.some((e) => e.action === 'ack' && e.run && !e.correlationId?.startsWith('studio-')),
    );
    const publish = view.timeline.findLast((e) => e.action === 'publish')!;
    expect(publish.run).toMatchObject({ flow: 'enqueue', role: 'producer', outcome: 'completed' });
    const ack = view.timeline.findLast((e) => e.action === 'ack')!;
    expect(ack).toMatchObject({ messageId: publish.messageId, run: { flow: 'work', role: 'consumer' } });
  });

  it('shows KV writes and the lease of a lock with the run that made them', async () => {
    const api = h.backend.api;
    for (let i = 0; i < 2; i++) expect((await fetch(routes.count, { method: 'POST' })).status).toBe(200);
    const kv = await until(
      () => api.kvView({ namespace: 'user' }),
      (v) => v.writes.filter((w) => w.key === 'reports/count' && w.run).length === 2,
    );
    expect(kv.keys).toContainEqual(expect.objectContaining({ key: 'reports/count', bytes: 1 }));
    expect(kv.writes.map((w) => [w.action, w.created, w.run?.flow])).toEqual([
      ['put', true, 'count'],
      ['put', false, 'count'],
    ]);
    const entry = await api.kvEntry('user', 'reports/count');
    expect(entry).toMatchObject({ value: { kind: 'json', text: '2' }, editText: '2', lastWrite: { run: { flow: 'count' } } });

    // Each write is linked to its own run: the runtime names the run on the call (X-Flow-Run-Id).
    const writers = kv.writes.map((w) => w.run!.runId);
    expect(new Set(writers).size).toBe(2);

    const leases = await until(
      () => api.leaseView({}),
      (v) => v.history.filter((e) => e.action === 'release').length === 2 && v.history.every((e) => e.action === 'renew' || e.run),
    );
    expect(leases.holders).toEqual([]);
    const holder = leases.history[0].holder;
    // Grant and release are linked, by the run id the lock sent, to the run that held the lock,
    // however loaded the machine: no time matching is involved.
    const events = leases.history.filter((e) => e.action !== 'renew');
    expect(events.map((e) => [e.action, e.name, e.holder, e.run?.flow, e.run?.role])).toEqual([
      ['grant', 'counter', holder, 'count', 'holder'],
      ['release', 'counter', holder, 'count', 'holder'],
      ['grant', 'counter', holder, 'count', 'holder'],
      ['release', 'counter', holder, 'count', 'holder'],
    ]);
    expect(events.map((e) => e.run!.runId)).toEqual([writers[0], writers[0], writers[1], writers[1]]);
    expect(leases.history[2].fencingToken).toBeGreaterThan(leases.history[0].fencingToken!);
  });

  it('refuses a KV edit at a stale version and keeps what the flow wrote', async () => {
    const api = h.backend.api;
    const before = (await api.kvEntry('user', 'reports/count'))!;
    expect((await fetch(routes.count, { method: 'POST' })).status).toBe(200);
    const result = await api.writeKvEntry({ namespace: 'user', key: 'reports/count', text: '100', format: 'json', expectedVersion: before.version });
    expect(result).toEqual({ ok: false, conflict: expect.stringMatching(/^Not saved: it is at version \d+, not \d+/), currentVersion: expect.any(Number) });
    expect((await api.kvEntry('user', 'reports/count'))?.value).toMatchObject({ text: '3' });
    const current = (await api.kvEntry('user', 'reports/count'))!;
    expect(await api.writeKvEntry({ namespace: 'user', key: 'reports/count', text: '100', format: 'json', expectedVersion: current.version })).toEqual({ ok: true, version: expect.any(Number) });
    expect((await api.kvView({ namespace: 'user' })).writes.at(-1)).toMatchObject({ fromStudio: true, version: expect.any(Number) });
  });

  it('scrubs back to the counters and keys of an earlier moment', async () => {
    const api = h.backend.api;
    // Scrubbing replays the recorded events after the last snapshot at or before a moment (the
    // views take one when they start), so a moment needs only to lie strictly between the writes.
    const earlier = await nextMillisecond();
    await nextMillisecond();
    await api.publishQueueMessage({ subject: 'jobs', body: { later: true }, count: 3 });
    await api.writeKvEntry({ namespace: 'user', key: 'added/later', text: '"x"', format: 'json', expectedVersion: 0 });
    await until(
      () => api.queueView({ subject: 'jobs' }),
      (v) => v.groups.some((g) => g.subject === 'jobs' && g.acked >= 5),
    );
    const then = await api.queueView({ subject: 'jobs', at: earlier });
    const now = await api.queueView({ subject: 'jobs' });
    const worker = (v: typeof now) => v.groups.find((g) => g.subject === 'jobs')!;
    expect(then.live).toBe(false);
    expect(worker(now).published - worker(then).published).toBe(3);
    expect(then.timeline.every((e) => e.at <= earlier)).toBe(true);
    const keysThen = (await api.kvView({ namespace: 'user', at: earlier })).keys.map((k) => k.key);
    expect(keysThen).toContain('reports/count');
    expect(keysThen).not.toContain('added/later');
  }, 20_000);
});
