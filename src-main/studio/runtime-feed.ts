import type { LogFeedEvent, TraceRecord } from '../../shared/feed-events.ts';
import { type LogRecord, type LogSink, type TraceEvent, type TraceHub } from '../runtime/index.ts';
import type { FeedSource, LiveFeed } from './live-feed.ts';

/** A feed source for one runtime's traces; the runtime traces only while it is attached. */
export function traceSource(integration: string, traces: TraceHub): FeedSource {
  return (push) => traces.add({ emit: (e) => push({ kind: 'trace', at: Date.now(), integration, trace: traceRecord(e) }) });
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

function traceRecord(e: TraceEvent): TraceRecord {
  const r: TraceRecord = {
    kind: e.kind,
    flow: e.flow,
    correlationId: e.correlationId,
    runId: e.runId,
    startedAt: e.startedAt,
    durationMs: e.durationMs,
    outcome: e.outcome,
  };
  if (e.step !== undefined) r.step = e.step;
  if (e.block !== undefined) r.block = e.block;
  if (e.name !== undefined) r.name = e.name;
  if (e.error !== undefined) r.error = e.error;
  if (e.input !== undefined) r.input = e.input;
  if (e.output !== undefined) r.output = e.output;
  return r;
}
