import { describe, expect, it } from 'vitest';
import type { FeedEvent } from '../../shared/feed-events.ts';
import { FEED_LIMITS } from './feed-slice.ts';
import { useStudio } from './studio-store.ts';

const trace = (i: number): FeedEvent => ({
  kind: 'trace',
  at: i,
  trace: { kind: 'run', flow: 'f', correlationId: `c${i}`, runId: `r${i}`, startedAt: i, durationMs: 1, outcome: 'completed' },
});

describe('the feed slice', () => {
  it('keeps only the newest traces, so memory stays bounded however long the feed runs', () => {
    const { appendFeed } = useStudio.getState();
    for (let batch = 0; batch < 12; batch++) appendFeed(Array.from({ length: 1000 }, (_, i) => trace(batch * 1000 + i)), 0);
    const { traces } = useStudio.getState();
    expect(traces).toHaveLength(FEED_LIMITS.traces);
    expect(traces.at(-1)!.trace.runId).toBe('r11999');
  });

  it('adds up what the transport and the bridge dropped, for the status bar', () => {
    const before = useStudio.getState().dropped;
    useStudio.getState().appendFeed([], 7);
    useStudio.getState().appendFeed([], 5);
    expect(useStudio.getState().dropped - before).toBe(12);
  });

  it('adds up the trace records runtimes dropped and the runs they left untraced under overload, apart from feed events lost', () => {
    const { dropped, tracesDropped, runsNotTraced } = useStudio.getState();
    useStudio.getState().appendFeed([], 0, { tracesDropped: 300, runsNotTraced: 40 });
    useStudio.getState().appendFeed([], 1, { tracesDropped: 200, runsNotTraced: 2 });
    expect(useStudio.getState().tracesDropped - tracesDropped).toBe(500);
    expect(useStudio.getState().runsNotTraced - runsNotTraced).toBe(42);
    expect(useStudio.getState().dropped - dropped).toBe(1);
  });

  it('lets the graph say how many runs went untraced since its counts were last reset', () => {
    useStudio.getState().appendFeed([], 0, { tracesDropped: 0, runsNotTraced: 10 });
    useStudio.getState().resetRunStats();
    const s = () => useStudio.getState();
    expect(s().runsNotTraced - s().untracedAtReset).toBe(0);
    useStudio.getState().appendFeed([], 0, { tracesDropped: 0, runsNotTraced: 25 });
    expect(s().runsNotTraced - s().untracedAtReset).toBe(25);
  });

  it('sorts events into their lists: logs, platform traffic, SSE frames', () => {
    useStudio.getState().appendFeed(
      [
        { kind: 'log', at: 1, log: { time: 't', level: 'info', msg: 'm', fields: {} } },
        { kind: 'queue', at: 1, subject: 'orders', action: 'publish' },
        { kind: 'kv', at: 1, namespace: 'user', key: 'k', action: 'put' },
        { kind: 'sse', at: 1, stream: 'web:1', data: 'x' },
      ],
      0,
    );
    const s = useStudio.getState();
    expect(s.logs.at(-1)!.log.msg).toBe('m');
    expect(s.platformEvents.slice(-2).map((e) => e.kind)).toEqual(['queue', 'kv']);
    expect(s.sseFrames.at(-1)!.stream).toBe('web:1');
  });
});
