import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FeedBatch } from '../../shared/feed-events.ts';
import type { StudioBridge } from '../../shared/studio-api.ts';
import { useStudio } from '../store/studio-store.ts';
import { connectFeed, FEED_MIN_INTERVAL_MS } from './feed-bridge.ts';

const frames: Array<() => void> = [];
vi.stubGlobal('requestAnimationFrame', (fn: () => void) => frames.push(fn));
vi.stubGlobal('cancelAnimationFrame', () => {});
afterEach(() => void frames.splice(0));

function fakeStudio() {
  let listener: ((b: FeedBatch) => void) | undefined;
  const studio = { on: (_e: string, l: (b: FeedBatch) => void) => ((listener = l), () => (listener = undefined)) } as unknown as StudioBridge;
  return { studio, deliver: (b: FeedBatch) => listener!(b) };
}

const log = (msg: string) => ({ kind: 'log' as const, at: 0, log: { time: 't', level: 'info' as const, msg, fields: {} } });

describe('the feed bridge', () => {
  it('enters batches into the store at most once per animation frame', () => {
    const { studio, deliver } = fakeStudio();
    const stop = connectFeed(studio);
    const appendFeed = vi.fn();
    useStudio.setState({ appendFeed });
    deliver({ events: [log('a')], dropped: 0 });
    deliver({ events: [log('b'), log('c')], dropped: 2, tracesDropped: 30, runsNotTraced: 7 });
    deliver({ events: [], dropped: 0, runsNotTraced: 5 });
    expect(appendFeed).not.toHaveBeenCalled();
    expect(frames).toHaveLength(1);
    frames[0]();
    expect(appendFeed).toHaveBeenCalledTimes(1);
    expect(appendFeed).toHaveBeenCalledWith([log('a'), log('b'), log('c')], 2, { tracesDropped: 30, runsNotTraced: 12 });
    stop();
  });

  it('counts what it cannot hold while no frame comes (a hidden window), instead of growing', () => {
    const { studio, deliver } = fakeStudio();
    const stop = connectFeed(studio);
    const appendFeed = vi.fn();
    useStudio.setState({ appendFeed });
    for (let i = 0; i < 30; i++) deliver({ events: Array.from({ length: 500 }, () => log('x')), dropped: 0 });
    frames[0]();
    expect(appendFeed.mock.calls[0][0]).toHaveLength(10_000);
    expect(appendFeed.mock.calls[0][1]).toBe(5_000);
    stop();
  });

  it('enters a lone event on the next frame, but a burst at most once per interval', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let clock = 1_000;
      const { studio, deliver } = fakeStudio();
      const stop = connectFeed(studio, () => clock);
      const appendFeed = vi.fn();
      useStudio.setState({ appendFeed });
      deliver({ events: [log('first')], dropped: 0 });
      expect(frames).toHaveLength(1);
      frames.shift()!();
      expect(appendFeed).toHaveBeenCalledTimes(1);

      // Events right after a flush wait for the interval, then for a frame: one entry for all.
      clock += 16;
      deliver({ events: [log('b')], dropped: 0 });
      clock += 16;
      deliver({ events: [log('c')], dropped: 0 });
      expect(frames).toHaveLength(0);
      // The wait counts from the flush (16 ms before the first of them).
      vi.advanceTimersByTime(FEED_MIN_INTERVAL_MS - 16 - 1);
      expect(frames).toHaveLength(0);
      vi.advanceTimersByTime(1);
      expect(frames).toHaveLength(1);
      clock += FEED_MIN_INTERVAL_MS;
      frames.shift()!();
      expect(appendFeed).toHaveBeenCalledTimes(2);
      expect(appendFeed.mock.calls[1][0]).toEqual([log('b'), log('c')]);

      // After a quiet spell a lone event goes out on the next frame again.
      clock += 5_000;
      deliver({ events: [log('later')], dropped: 0 });
      expect(frames).toHaveLength(1);
      stop();
    } finally {
      vi.useRealTimers();
    }
  });
});
