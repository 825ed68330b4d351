import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from './platform-api/contract.ts';

/**
 * The one shape of a call a step made while it ran (an outbound HTTP request, a platform call),
 * or of the request an http route answered, or of a run waiting in a debugger: what the
 * runtime's TraceHub hands its span sinks, what a runtime ships beside its trace records to
 * POST /v1/traces (the route validates it with this schema), what the platform stores and relays,
 * and what the studio files under the step that made it. The renderer's call (`RunCall`) is
 * derived from it with CALL_FIELDS, never written again.
 */
/** Kinds a span has; a trace record's kinds (`step`, `run`) are none of these. */
export const SPAN_KINDS = ['http', 'platform', 'server', 'debug'] as const;

export const TraceSpan = Type.Object(
  {
    kind: StringEnum(SPAN_KINDS, {
      description:
        '`http`: an outbound request; `platform`: a delegation API call; `server`: the request an http route answered, the parent of the run it started; `debug`: the run waited in a debugger before a step.',
    }),
    flow: Type.String({ minLength: 1 }),
    runId: Type.String(),
    correlationId: Type.String(),
    name: Type.String({ description: 'What was called, e.g. `GET https://api.example.com/v1/items` or `kv.get`.' }),
    startedAt: Type.Number({ description: 'Epoch milliseconds.' }),
    durationMs: Type.Number({ minimum: 0 }),
    status: Type.Optional(Type.Integer({ description: 'The HTTP status of the answer, when there was one.' })),
    error: Type.Optional(Type.String()),
    detail: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description: 'Plain data: method, url, attempts, cache hit, namespace…; on `debug`: step, action, who, edits before and after.',
      }),
    ),
    deployment: Type.Optional(Type.String()),
    instance: Type.Optional(Type.String()),
    traceId: Type.Optional(Type.String({ description: 'W3C trace id of the run that made the call.' })),
    spanId: Type.Optional(Type.String({ description: "The call's own span id." })),
    parentSpanId: Type.Optional(Type.String({ description: 'The step that made the call (else its run).' })),
    sampled: Type.Optional(Type.Boolean({ description: "As on TraceRecord: the caller's sampled flag, if the trace came from a caller." })),
  },
  { $id: 'TraceSpan', description: 'One call a step made (or the request a route answered), kept with its run.' },
);
export type TraceSpan = Static<typeof TraceSpan>;

export type TraceSpanKind = TraceSpan['kind'];

/** What the studio keeps of a call under its step (the run's and trace's own fields are the run's). */
export const CALL_FIELDS = ['kind', 'name', 'startedAt', 'durationMs', 'status', 'error', 'detail'] as const satisfies ReadonlyArray<keyof TraceSpan>;
