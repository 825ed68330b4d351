import { describe, expect, it } from 'vitest';
import type { HttpExchangeRecord } from '../../runtime/index.ts';
import { RunStore } from '../traces/run-store.ts';
import { CaptureStore } from './capture-store.ts';

const exchange = (correlationId: string, startedAt: number): HttpExchangeRecord => ({
  connector: 'web',
  flow: 'echo',
  route: '/echo',
  method: 'POST',
  target: '/echo',
  requestHeaders: [],
  correlationId,
  status: 200,
  responseHeaders: [],
  responseBody: new Uint8Array(),
  responseBytes: 0,
  startedAt,
  durationMs: 1,
  ended: 'finished',
});

describe('the run a captured request started', () => {
  it('is found when the run is recorded after the capture (its trace events trail the response)', async () => {
    const runs = new RunStore();
    const captures = new CaptureStore(runs);
    const capture = captures.add('demo', exchange('c-1', 1_000), (t) => t);
    expect(captures.summaryOf(capture).runId).toBeUndefined();
    const linked = captures.runOf(capture.id, 10_000);
    runs.record('demo', { kind: 'run', flow: 'echo', correlationId: 'c-1', runId: 'r-7', startedAt: 1_000, durationMs: 2, outcome: 'completed' });
    await expect(linked).resolves.toBe('r-7');
  });

  it('answers at once when the run is already linked, and gives up after the wait when no run comes', async () => {
    const runs = new RunStore();
    const captures = new CaptureStore(runs);
    runs.record('demo', { kind: 'run', flow: 'echo', correlationId: 'c-2', runId: 'r-8', startedAt: 2_000, durationMs: 2, outcome: 'completed' });
    const capture = captures.add('demo', exchange('c-2', 2_000), (t) => t);
    await expect(captures.runOf(capture.id, 0)).resolves.toBe('r-8');
    const lonely = captures.add('demo', exchange('c-3', 3_000), (t) => t);
    await expect(captures.runOf(lonely.id, 20)).resolves.toBeUndefined();
  });
});
