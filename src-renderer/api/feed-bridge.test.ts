import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FeedBatch } from '../../shared/feed-events.ts';
import type { StudioBridge } from '../../shared/studio-api.ts';
import { useStudio } from '../store/studio-store.ts';
import { connectFeed } from './feed-bridge.ts';

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
});
