import type { LogFeedEvent } from '../../shared/feed-events.ts';
import { FEED_FIELDS, pickFields } from '../../shared/trace-record.ts';
import { type LogRecord, type LogSink, type TraceHub } from '../runtime/index.ts';
import type { FeedSource, LiveFeed } from './live-feed.ts';

/** A feed source for one runtime's traces; the runtime traces only while it is attached. */
export function traceSource(integration: string, traces: TraceHub): FeedSource {
  return (push) => traces.add({ emit: (e) => push({ kind: 'trace', at: Date.now(), integration, trace: pickFields(e, FEED_FIELDS) }) });
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
