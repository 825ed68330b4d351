import { describe, expect, it } from 'vitest';
import type { TraceRecord } from '../../runtime/index.ts';
import { RunLinks } from './run-links.ts';

const ended = (runId: string, correlationId: string, startedAt: number, outcome: TraceRecord['outcome'] = 'completed'): TraceRecord => ({
  kind: 'run',
  flow: 'orders',
  correlationId,
  runId,
  startedAt,
  durationMs: 5,
  outcome,
});

describe('the links from platform events to runs', () => {
  it('finds a message’s publisher and consumer among the runs of its correlation id', () => {
    const links = new RunLinks();
    links.record('shop', ended('publisher', 'c-1', 1_000));
    links.record('billing', ended('consumer', 'c-1', 1_010, 'failed'));
    expect(links.producer('c-1', 1_002)).toMatchObject({ runId: 'publisher', role: 'producer' });
    expect(links.consumerAfter('c-1', 'billing', 1_008, 1_002)).toMatchObject({ runId: 'consumer', integration: 'billing', outcome: 'failed' });
    expect(links.byRunId('consumer', 'consumer')).toMatchObject({ runId: 'consumer', outcome: 'failed' });
  });

  it('remembers the newest maxRuns runs and forgets older ones from every index', () => {
    const links = new RunLinks({ maxRuns: 1_000 });
    for (let i = 0; i < 5_000; i++) links.record('shop', ended(`r${i}`, `c${i % 2_000}`, i));
    expect(links.byRunId('r3999', 'producer')).toBeUndefined();
    expect(links.byRunId('r4000', 'producer')).toMatchObject({ runId: 'r4000' });
    // c0 ended runs r0, r2000 and r4000; only the last is among the newest thousand.
    expect(links.runs('c0').map((r) => r.runId)).toEqual(['r4000']);
    expect(links.runs('c1999').map((r) => r.runId)).toEqual([]);
    expect(links.runs('c1000').map((r) => r.runId)).toEqual([]);
    expect(links.runs('c999').map((r) => r.runId)).toEqual(['r4999']);
  });
});
