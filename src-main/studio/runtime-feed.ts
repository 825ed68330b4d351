import type { LogFeedEvent } from '../../shared/feed-events.ts';
import { FEED_FIELDS, pickFields, type FeedTraceRecord } from '../../shared/trace-record.ts';
import { type LogRecord, type LogSink, type TraceHub } from '../runtime/index.ts';
import type { FeedSource, LiveFeed } from './live-feed.ts';

/**
 * A feed source for one runtime's traces; the runtime traces only while it is attached.
 * A window keeps, of the messages steps and runs saw, only the newest per step and per flow (the
 * CEL fields' sample), so a batch carries the message on the newest record of each and leaves it
 * off the others: under a flood of runs that was most of a batch's bytes, serialized for nothing.
 */
export function traceSource(integration: string, traces: TraceHub): FeedSource {
  return (push, batch) => {
    const newest = new Map<string, { trace: FeedTraceRecord; batch: number }>();
    return traces.add({
      emit: (e) => {
        const trace = pickFields(e, FEED_FIELDS);
        if (trace.input !== undefined) {
          const key = e.kind === 'step' ? (e.step ?? '') : `flow ${e.flow}`;
          const now = batch();
          const before = newest.get(key);
          // Only while its batch has not left: what a window was sent is never changed.
          if (before !== undefined && before.batch === now) before.trace.input = undefined;
          if (before !== undefined) {
            before.trace = trace;
            before.batch = now;
          } else newest.set(key, { trace, batch: now });
        }
        push({ kind: 'trace', at: Date.now(), integration, trace });
      },
    });
  };
}

/**
 * A log sink that forwards a runtime's records to the feed while someone listens, and to `keep`
 * (the studio's log history) always; with neither it builds nothing.
 */
export function logSink(integration: string, feed: LiveFeed, keep?: (event: LogFeedEvent) => void): LogSink {
  return (record: LogRecord) => {
    if (!feed.listening && !keep) return;
    const { time, level, msg, ...fields } = record;
    const event: LogFeedEvent = { kind: 'log', at: Date.now(), integration, log: { time, level, msg, fields } };
    keep?.(event);
    if (feed.listening) feed.push(event);
  };
}
