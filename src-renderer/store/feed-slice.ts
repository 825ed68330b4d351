import type { StateCreator } from 'zustand';
import { noneNotRecorded, type FeedEvent, type LogFeedEvent, type NotRecorded, type SseFeedEvent, type TraceFeedEvent } from '../../shared/feed-events.ts';
import type { StudioState } from './studio-store.ts';

/** Rows kept per list; older ones fall off, so memory stays bounded however long the feed runs. */
export const FEED_LIMITS = { traces: 5_000, logs: 5_000, platform: 2_000, sse: 2_000 } as const;

export type PlatformFeedEvent = Extract<FeedEvent, { kind: 'queue' | 'topic' | 'kv' | 'lease' }>;

export interface FeedSlice {
  traces: TraceFeedEvent[];
  logs: LogFeedEvent[];
  platformEvents: PlatformFeedEvent[];
  sseFrames: SseFeedEvent[];
  /** Events lost because the UI or the connection fell behind, since the studio opened. */
  dropped: number;
  /** Trace records the runtimes dropped under overload (never slowing requests), since the studio opened. */
  tracesDropped: number;
  /** Runs the runtimes left untraced while their request thread was saturated, since the studio opened. */
  runsNotTraced: number;
  /**
   * Puts stored lines (read back from the studio's history, oldest first) before the live ones,
   * leaving out any the live feed already brought.
   */
  addStoredLogs(lines: LogFeedEvent[]): void;
  /** Called by the feed bridge at most once per animation frame. */
  appendFeed(events: FeedEvent[], dropped: number, notRecorded?: NotRecorded): void;
  clearTraces(): void;
  clearLogs(): void;
}

function appendCapped<T>(list: T[], added: T[], cap: number): T[] {
  if (added.length === 0) return list;
  const next = list.concat(added);
  return next.length > cap ? next.slice(next.length - cap) : next;
}

/** The same line, whether it came live or read back from disk. */
function logKey(e: LogFeedEvent): string {
  return `${e.at}\u0000${e.integration ?? ''}\u0000${e.log.msg}`;
}

export const createFeedSlice: StateCreator<StudioState, [], [], FeedSlice> = (set) => ({
  traces: [],
  logs: [],
  platformEvents: [],
  sseFrames: [],
  dropped: 0,
  tracesDropped: 0,
  runsNotTraced: 0,
  appendFeed: (events, dropped, notRecorded = noneNotRecorded()) =>
    set((s) => {
      const traces: TraceFeedEvent[] = [];
      const logs: LogFeedEvent[] = [];
      const platform: PlatformFeedEvent[] = [];
      const sse: SseFeedEvent[] = [];
      for (const e of events) {
        if (e.kind === 'trace') traces.push(e);
        else if (e.kind === 'log') logs.push(e);
        else if (e.kind === 'sse') sse.push(e);
        // The Debugger panel follows its own events (features/debugger/debugger-sync.ts).
        else if (e.kind !== 'debug') platform.push(e);
      }
      return {
        traces: appendCapped(s.traces, traces, FEED_LIMITS.traces),
        logs: appendCapped(s.logs, logs, FEED_LIMITS.logs),
        platformEvents: appendCapped(s.platformEvents, platform, FEED_LIMITS.platform),
        sseFrames: appendCapped(s.sseFrames, sse, FEED_LIMITS.sse),
        dropped: s.dropped + dropped,
        tracesDropped: s.tracesDropped + notRecorded.tracesDropped,
        runsNotTraced: s.runsNotTraced + notRecorded.runsNotTraced,
      };
    }),
  addStoredLogs: (lines) =>
    set((s) => {
      const live = new Set(s.logs.map(logKey));
      const older = lines.filter((l) => !live.has(logKey(l)));
      if (older.length === 0) return s;
      const merged = older.concat(s.logs).sort((a, b) => a.at - b.at);
      return { logs: merged.length > FEED_LIMITS.logs ? merged.slice(merged.length - FEED_LIMITS.logs) : merged };
    }),
  clearTraces: () => set({ traces: [] }),
  clearLogs: () => set({ logs: [] }),
});
