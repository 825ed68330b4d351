import { badRequest, tooLarge } from '../http/api-error.ts';
import { parseJsonText, readBody, sendJson } from '../http/http-io.ts';
import type { Route } from '../http/router.ts';
import type { PlatformContext } from './platform-context.ts';
import { ingestTelemetry } from './telemetry-ingest.ts';

const MAX_BATCH_BYTES = 16 * 1024 * 1024;

/**
 * POST /v1/traces and /v1/logs (§4.6): a batch is a JSON array of records (or `{records: [...]}`),
 * stored as sent (its JSON text, one row per batch), published to the live feed, and answered 202.
 */
export function telemetryRoutes(p: PlatformContext): Route[] {
  const { features } = p;
  const batchRoute = (kind: 'traces' | 'logs'): Route => {
    const { supported, maxBatch } = features[kind];
    return {
      method: 'POST',
      path: `/v1/${kind}`,
      capability: kind,
      enabled: supported,
      async handle(ctx) {
        const bytes = await readBody(ctx.req, MAX_BATCH_BYTES);
        const text = bytes.toString('utf8');
        const records = batchRecords(bytes.length === 0 ? undefined : parseJsonText(text, 'the request body'), kind);
        if (records.length > maxBatch) {
          throw tooLarge('batch_too_large', `the batch holds ${records.length} ${kind} records; send at most ${kind}.maxBatch (${maxBatch}) per request`);
        }
        await ingestTelemetry(p, kind, { count: records.length, text, records });
        sendJson(ctx.res, 202, `{"accepted":${records.length}}`);
      },
    };
  };
  return [batchRoute('traces'), batchRoute('logs')];
}

function batchRecords(body: unknown, kind: string): unknown[] {
  const records = Array.isArray(body) ? body : (body as { records?: unknown } | undefined)?.records;
  if (!Array.isArray(records)) throw badRequest('invalid_body', `a ${kind} batch is a JSON array of records, or an object {"records": [...]}`);
  for (let i = 0; i < records.length; i++) {
    const r = records[i];
    if (typeof r !== 'object' || r === null || Array.isArray(r)) throw badRequest('invalid_body', `${kind} record [${i}] must be a JSON object`);
  }
  return records;
}
