import { TelemetryBatch, postLogs, postTraces } from '../../../shared/platform-api/telemetry.ts';
import type { Static } from '@sinclair/typebox';
import { tooLarge } from '../http/api-error.ts';
import { implement } from '../http/contract-route.ts';
import { parseJsonText, readBody, sendJson } from '../http/http-io.ts';
import { validBody } from '../http/request-validation.ts';
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
    // The batch is stored as the text it came in, so the body is read here and checked against TelemetryBatch.
    return implement(kind === 'traces' ? postTraces : postLogs, { capability: kind, enabled: supported }, async (ctx) => {
      const bytes = await readBody(ctx.req, MAX_BATCH_BYTES);
      const text = bytes.toString('utf8');
      const batch = validBody<Static<typeof TelemetryBatch>>(TelemetryBatch, bytes.length === 0 ? undefined : parseJsonText(text, 'the request body'));
      const records = Array.isArray(batch) ? batch : batch.records;
      if (records.length > maxBatch) {
        throw tooLarge('batch_too_large', `the batch holds ${records.length} ${kind} records; send at most ${kind}.maxBatch (${maxBatch}) per request`);
      }
      await ingestTelemetry(p, kind, { count: records.length, text, records });
      sendJson(ctx.res, 202, `{"accepted":${records.length}}`);
    });
  };
  return [batchRoute('traces'), batchRoute('logs')];
}
