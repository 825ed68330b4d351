/**
 * What the live feed carries from runtimes and the platform to the UI. Plain data only: these
 * cross IPC and a WebSocket as JSON.
 */
import type { DebugOutput } from './debugger-types.ts';
import type { FeedTraceRecord, TraceOutcome } from './trace-record.ts';

export type FeedOutcome = TraceOutcome;

export interface LogEntry {
  time: string;
  level: 'debug' | 'info' | 'warn' | 'error';
  msg: string;
  fields: Record<string, unknown>;
}

interface FeedBase {
  /** Epoch ms when the backend saw it. */
  at: number;
  /** The integration it came from, when it came from a runtime. */
  integration?: string;
}

/** One step of a flow, or a whole run (`trace.kind: 'run'`), as the runtime traced it. */
export interface TraceFeedEvent extends FeedBase {
  kind: 'trace';
  trace: FeedTraceRecord;
}
export interface LogFeedEvent extends FeedBase {
  kind: 'log';
  log: LogEntry;
  /** Its place among the stored lines, on lines read back from the studio's history. */
  seq?: number;
}
/** Queue traffic on the platform: publish, delivery, ack, nack. */
export interface QueueFeedEvent extends FeedBase {
  kind: 'queue';
  subject: string;
  action: string;
  detail?: Record<string, unknown>;
}
export interface TopicFeedEvent extends FeedBase {
  kind: 'topic';
  subject: string;
  action: string;
  detail?: Record<string, unknown>;
}
/** A KV write or delete; values are never carried, only their size. */
export interface KvFeedEvent extends FeedBase {
  kind: 'kv';
  namespace: string;
  key: string;
  action: string;
  detail?: Record<string, unknown>;
}
export interface LeaseFeedEvent extends FeedBase {
  kind: 'lease';
  name: string;
  action: string;
  detail?: Record<string, unknown>;
}
/** A frame written to a server-sent event stream of a running flow. */
export interface SseFeedEvent extends FeedBase {
  kind: 'sse';
  stream: string;
  event?: string;
  data: string;
}

/**
 * The debugger: a run paused, went on or ended, a breakpoint changed, or a logpoint wrote a line.
 * The Debugger panel reads the state again on any but `output` (debuggerState), so a dropped
 * event costs nothing but a moment's lag.
 */
export interface DebugFeedEvent extends FeedBase {
  kind: 'debug';
  action: 'paused' | 'resumed' | 'ended' | 'breakpoints' | 'output';
  thread?: number;
  output?: DebugOutput;
}

export type FeedEvent = TraceFeedEvent | LogFeedEvent | QueueFeedEvent | TopicFeedEvent | KvFeedEvent | LeaseFeedEvent | SseFeedEvent | DebugFeedEvent;

/** Events delivered together; `dropped` counts those lost since the previous batch. */
export interface FeedBatch {
  events: FeedEvent[];
  dropped: number;
  /**
   * Trace records the runtimes dropped since the last batch: tracing fell behind the request
   * rate and let records go rather than slow requests. Absent when none were.
   */
  tracesDropped?: number;
  /**
   * Runs not traced since the last batch because the runtime's request thread was saturated
   * (`FLOW_TRACE_SATURATED_RATE`): their requests were answered, not recorded. Absent when none were.
   */
  runsNotTraced?: number;
}

/** What runtimes did not record, each counted apart; every carrier of a batch adds them up alike. */
export const NOT_RECORDED = ['tracesDropped', 'runsNotTraced'] as const satisfies ReadonlyArray<keyof FeedBatch>;
export type NotRecordedKind = (typeof NOT_RECORDED)[number];
export type NotRecorded = Record<NotRecordedKind, number>;

export function noneNotRecorded(): NotRecorded {
  return { tracesDropped: 0, runsNotTraced: 0 };
}

/** Adds a batch's counts (an absent one is 0) into `into`. */
export function addNotRecorded(into: NotRecorded, from: Partial<NotRecorded>): void {
  for (const kind of NOT_RECORDED) into[kind] += from[kind] ?? 0;
}

/** The counts as a batch's fields: the ones above zero only, as a batch leaves out what did not happen. */
export function notRecordedFields(counts: NotRecorded): Partial<NotRecorded> {
  const fields: Partial<NotRecorded> = {};
  for (const kind of NOT_RECORDED) if (counts[kind] > 0) fields[kind] = counts[kind];
  return fields;
}
