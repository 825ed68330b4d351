/**
 * Payloads of the Traces panel: the stored runs, one run's waterfall with the message before and
 * after every step, and the comparison of two runs. Plain data only.
 */
import type { FeedOutcome } from './feed-events.ts';

/** Filters of the run list; every one is optional and they combine with AND. */
export interface RunQuery {
  integration?: string;
  flow?: string;
  outcome?: FeedOutcome;
  /** An HTTP status (`404`) or class (`4xx`). */
  status?: string;
  /** Matched, case-insensitively, against flow, route, error, ids, step names and the request body. */
  text?: string;
  /** Where runs came from: `test` (a flow test), `rerun` (a re-run from a step), `live` (neither: sources and requests). */
  origin?: RunOrigin;
  offset: number;
  limit: number;
}

export type RunOrigin = 'live' | 'test' | 'rerun';

export interface RunSummary {
  runId: string;
  integration: string;
  flow: string;
  correlationId: string;
  /** The route pattern and method, when an http source started the run. */
  route?: string;
  /** The path as requested (no query), e.g. `/users/42` on the route `/users/{id}`. */
  path?: string;
  method?: string;
  /** The HTTP status answered, once known. */
  status?: number;
  outcome: FeedOutcome;
  startedAt: number;
  durationMs: number;
  error?: string;
  steps: number;
  /** The captured request that started it. */
  captureId?: number;
  /** The W3C trace the run belongs to (joined from the caller's `traceparent`, or its own). */
  traceId?: string;
  /** A re-run from a step: the run it forked from and the step it started at. */
  forkedFrom?: string;
  forkedAt?: string;
  /** Set on runs of a flow test (the test's name). */
  test?: string;
}

export interface RunPage {
  /** Runs matching the filters (not only this page). */
  total: number;
  /** Runs stored, whatever the filters. */
  stored: number;
  offset: number;
  rows: RunSummary[];
  /** Every flow with stored runs, for the filter. */
  flows: string[];
  /** Time the store took to answer, for the person measuring. */
  tookMs: number;
  /**
   * Runs answered but not traced because their runtime was saturated (FLOW_TRACE_SATURATED_RATE),
   * since the studio started or the runs were cleared: of the integration filtered on, else of
   * every integration. Not split by flow or outcome: an untraced run left no record to filter.
   */
  notTraced: number;
}

/**
 * A value cut for display: long strings and lists are shortened where they occur and replaced by
 * this marker; `traceValue` returns the whole value at `path`.
 */
export interface TruncatedValue {
  $truncated: {
    /** The start of a string, or the first items of a list. */
    preview: unknown;
    /** Characters of a string, items of a list. */
    length: number;
    path: Array<string | number>;
  };
}

/** The message at one point: body and vars, cut for display (see TruncatedValue). */
export interface MessageSnapshot {
  body: unknown;
  vars: unknown;
}

/**
 * A call a step made: an outbound rest request or a platform call; or `debug`, the run waiting in
 * a debugger before the step (`detail`: action, who, and each edit with before and after).
 */
export interface RunCall {
  kind: 'http' | 'platform' | 'debug';
  name: string;
  startedAt: number;
  durationMs: number;
  status?: number;
  error?: string;
  detail?: Record<string, unknown>;
}

export interface RunStep {
  /** Position in the run, in order of start; what traceValue takes. */
  index: number;
  /** Setting path, e.g. `flows.orders.steps[1]`. */
  step: string;
  block?: string;
  name?: string;
  /** Nesting under switch cases and error chains, from the setting path. */
  depth: number;
  /** Platform blocks (kv, queue, topic, lock, memory) are platform calls in the waterfall. */
  category: 'block' | 'platform' | 'http';
  startedAt: number;
  durationMs: number;
  outcome: FeedOutcome;
  error?: string;
  input?: MessageSnapshot;
  output?: MessageSnapshot;
  calls: RunCall[];
}

export interface RunDetail {
  summary: RunSummary;
  steps: RunStep[];
  input?: MessageSnapshot;
  output?: MessageSnapshot;
  /** False when the run happened while no studio window listened: steps without messages. */
  snapshots: boolean;
  /** Other stored runs of the same trace (a queue consumer of this run, its publisher…), by start. */
  traceRuns?: RunSummary[];
}

/** Which side of a step's snapshot traceValue reads; `run` is the whole run's input/output. */
export type SnapshotSide = 'input' | 'output';

export interface TraceValueRef {
  runId: string;
  /** A step index, or -1 for the run itself. */
  step: number;
  side: SnapshotSide;
  path: Array<string | number>;
}

/** One step of two runs side by side, matched by setting path. */
export interface ComparedStep {
  step: string;
  block?: string;
  name?: string;
  depth: number;
  a?: RunStep;
  b?: RunStep;
  /** Both took it, with the same outcome and the same message after it. */
  same: boolean;
}

export interface RunComparison {
  a: RunSummary;
  b: RunSummary;
  steps: ComparedStep[];
  /** The whole runs' results, for the summary line. */
  aOutput?: MessageSnapshot;
  bOutput?: MessageSnapshot;
}
