import { logBatchForms, postLogs, postTraces, traceEntrySchema, TraceKind, type BatchForms, type TraceEntry } from '../../../shared/platform-api/telemetry.ts';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { tooLarge } from '../http/api-error.ts';
import { implement } from '../http/contract-route.ts';
import { parseJsonText, sendJson } from '../http/http-io.ts';
import { validBody, validEntries } from '../http/request-validation.ts';
import type { Route } from '../http/router.ts';
import type { PlatformContext } from './platform-context.ts';
import { ingestTelemetry, type TelemetryRecords } from './telemetry-ingest.ts';

const MAX_BATCH_BYTES = 16 * 1024 * 1024;

/**
 * POST /v1/traces and /v1/logs (§4.6): a batch is a JSON array of records (or `{records: [...]}`),
 * each checked against its schema (a trace entry against TraceRecord or TraceSpan, as its kind
 * says; a log against LogRecord), stored as sent (its JSON text, one row per batch), published
 * to the live feed, and answered 202.
 */
export function telemetryRoutes(p: PlatformContext): Route[] {
  const { features } = p;
  const batchRoute = <K extends 'traces' | 'logs'>(kind: K, valid: (body: unknown) => Array<TelemetryRecords[K]>): Route => {
    const { supported, maxBatch } = features[kind];
    // The batch is stored as the text it came in, so the body is read here and checked against
    // the form it has: a refusal then names the record and field (`records[3].step`).
    return implement(kind === 'traces' ? postTraces : postLogs, { capability: kind, enabled: supported }, async (ctx) => {
      const bytes = await ctx.bytes();
      const text = bytes.toString('utf8');
      const body = bytes.length === 0 ? undefined : parseJsonText(text, 'the request body');
      // Counted before the records are checked: a batch over the limit is refused without that work.
      const count = recordCount(body);
      if (count > maxBatch) throw tooLarge('batch_too_large', `the batch holds ${count} ${kind} records; send at most ${kind}.maxBatch (${maxBatch}) per request`);
      const records = valid(body);
      await ingestTelemetry(p, kind, { count: records.length, text, records });
      sendJson(ctx.res, 202, `{"accepted":${records.length}}`);
    }, { maxBytes: MAX_BATCH_BYTES });
  };
  return [batchRoute('traces', traceEntries), batchRoute('logs', (body) => batchRecords(logBatchForms, body))];
}

/** Only the `{records: [...]}` form's shape; its entries are checked one by one. */
const Envelope = Type.Object({ records: Type.Array(Type.Unknown()) });

/** A trace batch's entries, each checked against the schema its kind picks (validEntries says why). */
function traceEntries(body: unknown): TraceEntry[] {
  if (Array.isArray(body)) return validEntries<TraceEntry>(body, TraceKind, traceEntrySchema, (i) => `/${i}`);
  return validEntries<TraceEntry>(validBody<Static<typeof Envelope>>(Envelope, body).records, TraceKind, traceEntrySchema, (i) => `/records/${i}`);
}

function batchRecords<R extends TSchema>(forms: BatchForms<R>, body: unknown): Array<Static<R>> {
  return Array.isArray(body) ? validBody<Array<Static<R>>>(forms.array, body) : validBody<{ records: Array<Static<R>> }>(forms.object, body).records;
}

function recordCount(body: unknown): number {
  if (Array.isArray(body)) return body.length;
  const records = typeof body === 'object' && body !== null ? (body as { records?: unknown }).records : undefined;
  return Array.isArray(records) ? records.length : 0;
}
