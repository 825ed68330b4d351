import { describe, expect, it } from 'vitest';
import type { ExportRecord } from './otel-pipeline.ts';
import { packRecords, unpackRecords } from './otel-wire.ts';

const SECRET = 'sk-live-1234';
const mask = (s: string): string => s.replaceAll(SECRET, '***');

const step: ExportRecord = {
  event: {
    kind: 'step',
    flow: 'orders',
    correlationId: 'c-1',
    runId: 'r-1',
    step: 'flows.orders.steps[0]',
    block: 'rest',
    name: 'price',
    startedAt: 1_700_000_000_123.5,
    durationMs: 0.25,
    outcome: 'failed',
    error: `upstream refused key ${SECRET}`,
    input: { body: SECRET },
    output: { body: 'ok' },
    deployment: 'local',
    traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
    spanId: '00f067aa0ba902b7',
    parentSpanId: '00f067aa0ba902b8',
    sampled: true,
  },
};
const run: ExportRecord = {
  event: { kind: 'run', flow: 'orders', correlationId: 'c-1', runId: 'r-1', startedAt: 1, durationMs: 2, outcome: 'completed', traceId: 't', spanId: 's' },
};
const call: ExportRecord = {
  call: {
    kind: 'http',
    flow: 'orders',
    runId: 'r-1',
    correlationId: 'c-1',
    name: `GET https://api.example.com/price?key=${SECRET}`,
    startedAt: 3,
    durationMs: 4,
    status: 401,
    detail: { method: 'GET', url: `https://api.example.com/price?key=${SECRET}`, attempts: 2, cached: false, headers: { authorization: SECRET } },
    traceId: 't',
    spanId: 's2',
    parentSpanId: 's',
  },
};

describe('export records on their way to the worker', () => {
  it('arrive as they left, with every string a span shows masked and snapshots left behind', () => {
    const rows = packRecords([step, run, call], mask);
    expect(rows.every((c) => c === undefined || ['string', 'number', 'boolean'].includes(typeof c))).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(SECRET);
    const [s, r, c] = unpackRecords(structuredClone(rows));
    // What no span shows stays behind: snapshots, the deployment (the resource's), the caller's
    // sampled flag (decided before packing), a step's or call's run and correlation id (its run's).
    const { input: _input, output: _output, deployment: _deployment, sampled: _sampled, ...rest } = (step as { event: object }).event as Record<string, unknown>;
    expect(s).toEqual({ event: { ...rest, runId: '', correlationId: '', error: 'upstream refused key ***' } });
    expect(r).toEqual(run);
    expect(c).toEqual({
      call: {
        ...(call as { call: object }).call,
        runId: '',
        correlationId: '',
        name: 'GET https://api.example.com/price?key=***',
        detail: { method: 'GET', url: 'https://api.example.com/price?key=***', attempts: 2, cached: false },
      },
    });
  });

  it('pass unchanged without a mask, and an empty batch stays empty', () => {
    expect(unpackRecords(packRecords([run], undefined))).toEqual([run]);
    expect(unpackRecords(packRecords([], undefined))).toEqual([]);
  });

  it('refuse a batch they cannot read, naming where', () => {
    expect(() => unpackRecords([9])).toThrow('unknown record tag 9 at 0');
  });
});
