import { Type, type Static, type TArray, type TObject, type TSchema } from '@sinclair/typebox';
import { RECORD_KINDS, TraceRecord } from '../trace-record.ts';
import { SPAN_KINDS, TraceSpan } from '../trace-span.ts';
import { component, StringEnum } from './contract.ts';
import { defineRoute } from './route.ts';
import { TooLarge } from './common.ts';

export { TraceRecord, TraceSpan };

/**
 * What a trace batch holds: a step's or run's record, or a call a step made. Told apart by
 * `kind`, which the route reads first (TRACE_KINDS) so a refusal names the field of the shape
 * the record claims to be, not "none of two shapes".
 */
export const TraceEntry = Type.Union([TraceRecord, TraceSpan], { description: 'A TraceRecord (kind step or run) or a TraceSpan (kind http, platform, server or debug).' });
export type TraceEntry = Static<typeof TraceEntry>;

/** Every kind a trace batch's entry may have: the record's and the span's. */
export const TraceKind = Type.Object({ kind: StringEnum([...RECORD_KINDS, ...SPAN_KINDS]) });

/** A trace batch's entry is a call (TraceSpan), not a step's or run's record. */
export function isTraceSpan(entry: { kind: string }): entry is TraceSpan {
  return (SPAN_KINDS as readonly string[]).includes(entry.kind);
}

/** The schema an entry of a trace batch is checked against, by its `kind`. */
export function traceEntrySchema(entry: { kind: string }): typeof TraceRecord | typeof TraceSpan {
  return isTraceSpan(entry) ? TraceSpan : TraceRecord;
}

/** A structured-logger JSON object, passed untouched; its other fields are the logger's. */
export const LogRecord = component(
  'LogRecord',
  Type.Object(
    {
      time: Type.Optional(Type.String({ description: 'ISO 8601.' })),
      level: Type.Optional(Type.String({ description: 'debug, info, warn or error.' })),
      msg: Type.Optional(Type.String()),
      deployment: Type.Optional(Type.String()),
      instance: Type.Optional(Type.String()),
    },
    { description: 'A structured-logger record, stored and relayed as sent.' },
  ),
);

export type LogRecord = Static<typeof LogRecord>;

const BATCH_FORMS = 'A JSON array of records, or {records: [...]}.';

/**
 * A batch's two forms, each its own schema: the route checks a body against the form it has,
 * so a refusal names the record and field (`records[3].step`), not "one of two forms".
 */
export interface BatchForms<R extends TSchema> {
  array: TArray<R>;
  object: TObject<{ records: TArray<R> }>;
}

function batchForms<R extends TSchema>(record: R): BatchForms<R> {
  return {
    array: Type.Array(record, { description: BATCH_FORMS }),
    object: Type.Object({ records: Type.Array(record) }, { description: BATCH_FORMS }),
  };
}

export const traceBatchForms = batchForms(TraceEntry);
export const logBatchForms = batchForms(LogRecord);

export const TraceBatch = component('TraceBatch', Type.Union([traceBatchForms.array, traceBatchForms.object], { description: `${BATCH_FORMS} Each entry is validated against TraceRecord or TraceSpan, as its kind says, then stored and relayed as sent.` }));
export const LogBatch = component('LogBatch', Type.Union([logBatchForms.array, logBatchForms.object], { description: `${BATCH_FORMS} Each record is a JSON object stored and relayed as sent.` }));

export const TelemetryAccepted = component('TelemetryAccepted', Type.Object({ accepted: Type.Integer() }));

export const postTraces = defineRoute({
  operationId: 'postTraces',
  method: 'POST',
  path: '/v1/traces',
  tag: 'traces',
  summary: 'Ship traces',
  description: 'Each entry checked against TraceRecord or TraceSpan by its kind (a 400 names the entry and field), stored as sent, one row per batch (kept within retainRecords, retainBytes and retainSeconds), published to in-process listeners, answered 202.',
  body: { required: true, content: { 'application/json': TraceBatch } },
  responses: {
    202: {
      description: 'Accepted.',
      content: { 'application/json': TelemetryAccepted },
    },
    413: TooLarge,
  },
});

export const postLogs = defineRoute({
  operationId: 'postLogs',
  method: 'POST',
  path: '/v1/logs',
  tag: 'logs',
  summary: 'Ship logs',
  description: 'Stored as sent, one row per batch (kept within retainRecords, retainBytes and retainSeconds), published to in-process listeners, answered 202.',
  body: { required: true, content: { 'application/json': LogBatch } },
  responses: {
    202: {
      description: 'Accepted.',
      content: { 'application/json': TelemetryAccepted },
    },
    413: TooLarge,
  },
});

export const telemetryRoutes = [postTraces, postLogs] as const;
