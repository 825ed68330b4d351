import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlatformEvent } from '../events.ts';
import { startTestPlatform, type TestPlatform } from '../testing/platform-harness.ts';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform({ manualClock: true, features: { traces: { maxBatch: 50, retainRecords: 20 }, logs: { retainRecords: 1000, retainSeconds: 1 } } });
});
afterAll(() => platform.close());

const trace = (n: number) => ({
  kind: 'step',
  flow: 'orders',
  correlationId: `c${n}`,
  runId: `r${n}`,
  step: 'flows.orders.steps[0]',
  block: 'set',
  startedAt: 1_700_000_000_000 + n,
  durationMs: n,
  outcome: 'completed',
  deployment: 'd1',
  instance: 'i1',
});

const call = (n: number) => ({
  kind: 'platform',
  flow: 'orders',
  runId: `r${n}`,
  correlationId: `c${n}`,
  name: 'kv.get',
  startedAt: 1_700_000_000_000 + n,
  durationMs: 0.25,
  detail: { namespace: 'orders', key: `k${n}` },
  deployment: 'd1',
  instance: 'i1',
  traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
  spanId: '00f067aa0ba902b7',
  parentSpanId: '00f067aa0ba902b8',
});

describe('telemetry (§4.6)', () => {
  it('accepts a trace batch with 202, stores the records as sent and tells live listeners', async () => {
    const seen: PlatformEvent[] = [];
    const stop = platform.server.events.subscribe((e) => seen.push(e));
    const res = await platform.call('POST', '/v1/traces', { json: [trace(1), trace(2)] });
    stop();
    expect(res.status).toBe(202);
    expect((await platform.server.traces.list({ limit: 2 })).map((r) => r.record)).toEqual([trace(2), trace(1)]);
    expect(seen).toEqual([expect.objectContaining({ type: 'traces', records: [trace(1), trace(2)] })]);
  });

  it('accepts the {records: [...]} form and log records passed through untouched', async () => {
    const record = { time: '2026-01-01T00:00:00.000Z', level: 'info', msg: 'hello', nested: { a: [1, 2] }, deployment: 'd1', instance: 'i1' };
    expect((await platform.call('POST', '/v1/logs', { json: { records: [record] } })).status).toBe(202);
    expect((await platform.server.logs.list({ limit: 1 }))[0].record).toEqual(record);
  });

  it('refuses a batch above maxBatch with 413 naming the limit', async () => {
    const res = await platform.call('POST', '/v1/traces', { json: Array.from({ length: 51 }, (_, i) => trace(i)) });
    expect(res.status).toBe(413);
    expect(res.message).toContain('traces.maxBatch (50)');
  });

  it('refuses a batch that is not an array of objects with 400', async () => {
    expect((await platform.call('POST', '/v1/traces', { json: { nope: 1 } })).status).toBe(400);
    expect((await platform.call('POST', '/v1/logs', { json: [1, 2] })).status).toBe(400);
  });

  it('refuses a trace record that is not a TraceRecord with 400 naming the record and field, storing none of the batch', async () => {
    const before = platform.server.traces.kept.records;
    const cases: Array<[unknown, string]> = [
      [[trace(1), { ...trace(2), step: 'steps[1]' }], '"[1].step" must be a step path such as flows.orders.steps[1]'],
      [{ records: [{ ...trace(3), outcome: 'finished' }] }, '"records[0].outcome" must be one of completed, dropped, failed'],
      [[{ ...trace(4), durationMs: 'slow' }], '"[0].durationMs" must be a number'],
      [[{ ...trace(5), sampled: 'yes' }], '"[0].sampled" must be true or false'],
    ];
    for (const [json, message] of cases) {
      const res = await platform.call('POST', '/v1/traces', { json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(res.code).toBe('invalid_field');
      expect(res.message).toContain(message);
    }
    const { runId: _, ...noRunId } = trace(6);
    const missing = await platform.call('POST', '/v1/traces', { json: [noRunId] });
    expect(missing.status).toBe(400);
    expect(missing.code).toBe('missing_field');
    expect(missing.message).toContain('needs "[0].runId"');
    expect(platform.server.traces.kept.records).toBe(before);
  });

  it('takes the calls a step made beside its records, checked against TraceSpan, stored and relayed as sent', async () => {
    const seen: PlatformEvent[] = [];
    const stop = platform.server.events.subscribe((e) => seen.push(e));
    const http = { ...call(7), kind: 'http', name: 'GET https://api.example.com/items', status: 200, error: 'retried once', sampled: true };
    const res = await platform.call('POST', '/v1/traces', { json: { records: [trace(7), call(7), http] } });
    stop();
    expect(res.status).toBe(202);
    expect((await platform.server.traces.list({ limit: 3 })).map((r) => r.record)).toEqual([http, call(7), trace(7)]);
    expect(seen).toEqual([expect.objectContaining({ type: 'traces', records: [trace(7), call(7), http] })]);
  });

  it('refuses a call that is not a TraceSpan with 400 naming the entry and field, storing none of the batch', async () => {
    const before = platform.server.traces.kept.records;
    const cases: Array<[unknown, string, string]> = [
      [[trace(1), { ...call(2), status: 'ok' }], 'invalid_field', '"[1].status" must be an integer'],
      [{ records: [call(3), { ...call(4), detail: ['namespace'] }] }, 'invalid_field', '"records[1].detail" must be a JSON object'],
      [[{ ...call(5), kind: 'grpc' }], 'invalid_field', '"[0].kind" must be one of step, run, http, platform, server, debug'],
      [[{ ...call(6), name: undefined }], 'missing_field', 'needs "[0].name"'],
      [[trace(8), 'a call'], 'invalid_field', '"[1]" must be a JSON object'],
    ];
    for (const [json, code, message] of cases) {
      const res = await platform.call('POST', '/v1/traces', { json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(res.code, JSON.stringify(json)).toBe(code);
      expect(res.message).toContain(message);
    }
    expect(platform.server.traces.kept.records).toBe(before);
  });

  it('keeps at most retainRecords records, dropping the oldest', async () => {
    for (let batch = 0; batch < 3; batch++) {
      await platform.call('POST', '/v1/traces', { json: Array.from({ length: 10 }, (_, i) => trace(100 + batch * 10 + i)) });
    }
    const kept = (await platform.server.traces.list({ limit: 1000 }));
    expect(kept.length).toBeLessThanOrEqual(20);
    expect(kept[0].record).toEqual(trace(129));
  });

  it('pages records one by one across the batches they arrived in, newest first', async () => {
    await platform.call('POST', '/v1/traces', { json: [trace(201), trace(202), trace(203)] });
    await platform.call('POST', '/v1/traces', { json: [trace(204), trace(205)] });
    const first = (await platform.server.traces.list({ limit: 3 }));
    expect(first.map((r) => r.record)).toEqual([trace(205), trace(204), trace(203)]);
    const next = (await platform.server.traces.list({ limit: 2, beforeId: first[2].id }));
    expect(next.map((r) => r.record)).toEqual([trace(202), trace(201)]);
  });

  it('keeps at most retainBytes of record JSON, dropping the oldest batches', async () => {
    // About 300 bytes a record: room for a few batches of five, not all ten.
    const small = await startTestPlatform({ features: { traces: { retainBytes: 5000 } } });
    try {
      const padded = (n: number) => ({ ...trace(n), pad: 'x'.repeat(90) });
      for (let batch = 0; batch < 10; batch++) {
        await small.call('POST', '/v1/traces', { json: Array.from({ length: 5 }, (_, i) => padded(batch * 5 + i)) });
      }
      expect(small.server.traces.kept.bytes).toBeLessThanOrEqual(5000);
      const kept = (await small.server.traces.list({ limit: 1000 }));
      expect(kept[0].record).toEqual(padded(49));
      expect(kept.length).toBeLessThan(50);
      expect(kept.length).toBeGreaterThan(5);
    } finally {
      await small.close();
    }
  });

  it('drops records older than retainSeconds', async () => {
    await platform.call('POST', '/v1/logs', { json: [{ msg: 'old' }] });
    await platform.elapse(1100);
    await platform.call('POST', '/v1/logs', { json: [{ msg: 'new' }] });
    // 100 more records trigger a prune (a prune also runs on a timer).
    await platform.call('POST', '/v1/logs', { json: Array.from({ length: 100 }, () => ({ msg: 'filler' })) });
    expect((await platform.server.logs.list({ limit: 1000 })).some((r) => (r.record as { msg: string }).msg === 'old')).toBe(false);
  });
});
