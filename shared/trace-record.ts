import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from './platform-api/contract.ts';
import { STEP_PATH_PATTERN } from './step-paths.ts';

/**
 * The one shape of a trace record: what the runtime's TraceHub emits for a step or a whole run,
 * what a runtime ships to POST /v1/traces (the route validates it with this schema), what the
 * platform stores and relays, and what the studio's live feed carries to the renderer. Shapes
 * that keep only part of it (a stored step, the feed's row) are derived from it with the field
 * lists below, never written again.
 */
/** Kinds a trace record has; a span's kinds (shared/trace-span.ts) are none of these. */
export const RECORD_KINDS = ['step', 'run'] as const;

export const TraceRecord = Type.Object(
  {
    kind: StringEnum(RECORD_KINDS, { description: '`step` for one step, `run` for the whole run.' }),
    flow: Type.String({ minLength: 1 }),
    correlationId: Type.String(),
    runId: Type.String(),
    step: Type.Optional(
      Type.String({
        pattern: STEP_PATH_PATTERN,
        'x-expected': 'a step path such as flows.orders.steps[1]',
        description: 'Setting path of the step, e.g. `flows.orders.steps[1]`; absent on run records.',
      }),
    ),
    block: Type.Optional(Type.String({ description: 'Block type, e.g. `filter`.' })),
    name: Type.Optional(Type.String({ description: "The step's `name`, when the author gave one." })),
    startedAt: Type.Number({ description: 'Epoch milliseconds.' }),
    durationMs: Type.Number({ minimum: 0 }),
    outcome: StringEnum(['completed', 'dropped', 'failed']),
    error: Type.Optional(Type.String()),
    input: Type.Optional(Type.Unknown({ description: 'The message before the step (body and vars), when snapshots were on.' })),
    output: Type.Optional(Type.Unknown({ description: 'The message after the step, when snapshots were on.' })),
    deployment: Type.Optional(Type.String()),
    instance: Type.Optional(Type.String()),
    traceId: Type.Optional(Type.String({ description: 'W3C trace id of the run (joined from an incoming `traceparent`, or new).' })),
    spanId: Type.Optional(Type.String({ description: "This run's or step's span id." })),
    parentSpanId: Type.Optional(Type.String({ description: "The parent span: the caller's (run), the run's or the enclosing step's (step)." })),
    sampled: Type.Optional(Type.Boolean({ description: "The caller's sampled flag when the run joined a caller's trace; absent when it started here." })),
  },
  { $id: 'TraceRecord', description: 'One record of what a step (or a whole run) did with a message.' },
);
export type TraceRecord = Static<typeof TraceRecord>;

export type TraceOutcome = TraceRecord['outcome'];

/**
 * How the error of a run record begins when an http source refused the request before its flow
 * ran (a body that is not valid JSON: 400; one over maxBodyBytes: 413; a body that stalled: 408;
 * the flow not running or its maxStreams reached: 503): a run of no steps, so a
 * user debugging a webhook sees the request in the traces, and the studio lists it as rejected,
 * the rest of the error being the reason.
 */
export const REFUSED_BEFORE_FLOW = 'refused before the flow ran: ';

/** What a step's record keeps once it is filed under its run (the run's own fields are the run's). */
export const STEP_FIELDS = ['block', 'name', 'startedAt', 'durationMs', 'outcome', 'error', 'input', 'output', 'spanId'] as const satisfies ReadonlyArray<keyof TraceRecord>;

/**
 * What the live feed carries to the renderer: the record without where it ran and its W3C ids
 * (the studio knows the integration; the feed's rows show no spans), and without the message
 * after the step (a window opens the run for it): the message before it is a CEL field's sample.
 */
export const FEED_FIELDS = ['kind', 'flow', 'correlationId', 'runId', 'step', 'block', 'name', 'startedAt', 'durationMs', 'outcome', 'error', 'input'] as const satisfies ReadonlyArray<keyof TraceRecord>;
export type FeedTraceRecord = Pick<TraceRecord, (typeof FEED_FIELDS)[number]>;

/**
 * The fields of `record` named in `fields`, those it has (an absent one stays absent, so a copy
 * serializes as the original would).
 */
export function pickFields<T extends object, const K extends ReadonlyArray<keyof T>>(record: T, fields: K): Pick<T, K[number]> {
  const out: Partial<Pick<T, K[number]>> = {};
  for (const field of fields) {
    const value = record[field];
    if (value !== undefined) out[field] = value;
  }
  return out as Pick<T, K[number]>;
}
