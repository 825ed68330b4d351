import { Type, type TArray, type TObject, type TSchema } from '@sinclair/typebox';
import { TraceRecord } from '../trace-record.ts';
import { component } from './contract.ts';
import { defineRoute } from './route.ts';
import { TooLarge } from './common.ts';

export { TraceRecord };

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

export const traceBatchForms = batchForms(TraceRecord);
export const logBatchForms = batchForms(LogRecord);

export const TraceBatch = component('TraceBatch', Type.Union([traceBatchForms.array, traceBatchForms.object], { description: `${BATCH_FORMS} Each record is validated against TraceRecord, then stored and relayed as sent.` }));
export const LogBatch = component('LogBatch', Type.Union([logBatchForms.array, logBatchForms.object], { description: `${BATCH_FORMS} Each record is a JSON object stored and relayed as sent.` }));

export const TelemetryAccepted = component('TelemetryAccepted', Type.Object({ accepted: Type.Integer() }));

export const postTraces = defineRoute({
  operationId: 'postTraces',
  method: 'POST',
  path: '/v1/traces',
  tag: 'traces',
  summary: 'Ship traces',
  description: 'Checked against TraceRecord (a 400 names the record and field), stored as sent, one row per batch (kept within retainRecords, retainBytes and retainSeconds), published to in-process listeners, answered 202.',
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
