/**
 * Payloads of the Traces panel: the stored runs, one run's waterfall with the message before and
 * after every step, and the comparison of two runs. Plain data only.
 */
import type { FeedOutcome } from './feed-events.ts';
import type { FileDiff } from './resource-types.ts';
import type { VerificationNote } from './request-types.ts';
import type { TraceRecord } from './trace-record.ts';
import type { CALL_FIELDS, TraceSpan, TraceSpanKind } from './trace-span.ts';

/**
 * How a run ended, as the Traces panel lists it: the runtime's outcome, or `rejected` when a
 * verification step (jwt-verify, notes-verify-request) turned the request away with a 4xx.
 */
export type RunOutcome = FeedOutcome | 'rejected';

/**
 * The definition that served a run: the studio's generation of the working copy (it grows with
 * every start and reload, across restarts) and a digest of its definition files. A working-copy
 * version reads `v3`, with its digest; a version tag is a name the user gave (`v1.0.0`).
 */
export interface DefinitionVersion {
  generation: number;
  digest: string;
}

/** A version of an integration's definition that served stored runs. */
export interface StoredVersion extends DefinitionVersion {
  integration: string;
  runs: number;
}

/** Why a verification step turned a run's request away. */
export interface RunRejection {
  /** The setting path of the step, e.g. `flows.receive-webhook.steps[0]`. */
  step: string;
  block: string;
  /** In the block's words, e.g. `invalid token: "iss" claim check failed`. */
  reason: string;
}

/** Filters of the run list; every one is optional and they combine with AND. */
export interface RunQuery {
  integration?: string;
  flow?: string;
  /** The route pattern (`/items/{id}`), as listed on runs. */
  route?: string;
  outcome?: RunOutcome;
  /** An HTTP status (`404`) or class (`4xx`). */
  status?: string;
  /** The definition's generation that served the run (`3` for v3). */
  generation?: number;
  /**
   * Matched, case-insensitively, against flow, route, path, error, ids, step names, the request
   * and response bodies, header values and the message's vars (their first 8 KiB).
   */
  text?: string;
  /** Where runs came from: `test` (a flow test), `rerun` (a re-run from a step), `live` (neither: sources and requests). */
  origin?: RunOrigin;
  offset: number;
  limit: number;
}

export type RunOrigin = 'live' | 'test' | 'rerun';

/** A stored run: the fields of its run record, and what the studio learned about it around it. */
export interface RunSummary extends Pick<TraceRecord, 'runId' | 'flow' | 'correlationId' | 'startedAt' | 'durationMs' | 'error' | 'traceId'> {
  integration: string;
  /** The route pattern and method, when an http source started the run. */
  route?: string;
  /** The path as requested (no query), e.g. `/users/42` on the route `/users/{id}`. */
  path?: string;
  method?: string;
  /** The HTTP status answered, once known. */
  status?: number;
  outcome: RunOutcome;
  /** Set on a `rejected` run. */
  rejection?: RunRejection;
  /** The definition version that served it (runs of the integration's working copy). */
  version?: DefinitionVersion;
  steps: number;
  /** The captured request that started it. */
  captureId?: number;
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
  /** Every definition version with stored runs, newest first, for the filter. */
  versions: StoredVersion[];
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
 * a debugger before the step (`detail`: action, who, and each edit with before and after). The
 * span's CALL_FIELDS; never the request's server span, which is the run's parent, not a step's call.
 */
export type RunCall = Omit<Pick<TraceSpan, (typeof CALL_FIELDS)[number]>, 'kind'> & { kind: Exclude<TraceSpanKind, 'server'> };

/** One step of a run's waterfall: the fields of its trace record, placed and with its message cut for display. */
export interface RunStep extends Pick<TraceRecord, 'block' | 'name' | 'startedAt' | 'durationMs' | 'error'> {
  /** Position in the run, in order of start; what traceValue takes. */
  index: number;
  /** Setting path, e.g. `flows.orders.steps[1]`. */
  step: string;
  /** Nesting under switch cases and error chains, from the setting path. */
  depth: number;
  /** Platform blocks (kv, queue, topic, lock, memory) are platform calls in the waterfall. */
  category: 'block' | 'platform' | 'http';
  /** A step's own outcome; `rejected` only on the whole run shown as a step. */
  outcome: RunOutcome;
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
  /**
   * On a rejected run: the reason, and what the verification expected against what the request
   * carried (a notes signature, a JWT's issuer, audience, algorithm and expiry) when known.
   */
  verification?: VerificationNote;
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

/** Two runs served by different definition versions: which, and how their files differ. */
export interface DefinitionChange {
  a: DefinitionVersion;
  b: DefinitionVersion;
  /** The definition files that differ, line by line (A's version before, B's after). */
  files: FileDiff[];
  /** Why the files are not shown, when a version's files were not kept. */
  note?: string;
}

export interface RunComparison {
  a: RunSummary;
  b: RunSummary;
  steps: ComparedStep[];
  /** Set when the runs came from different versions of one integration's definition. */
  definitions?: DefinitionChange;
  /** The whole runs' results, for the summary line. */
  aOutput?: MessageSnapshot;
  bOutput?: MessageSnapshot;
}
