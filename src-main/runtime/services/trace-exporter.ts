import { performance } from 'node:perf_hooks';
import { postLogs, postTraces } from '../../../shared/platform-api/route-addresses.ts';
import type { TraceEntry } from '../../../shared/platform-api/telemetry.ts';
import type { SecretRedactor } from '../core/logger.ts';
import type { PlatformTransport } from './api-http.ts';
import type { Capability } from './capability.ts';
import { callRoute } from './route-call.ts';
import type { RecordExporter } from './telemetry-pipeline.ts';

/** Where trace records and the calls steps made leave the runtime: the platform's /v1/traces, the embedded platform's store. */
export type TraceExporter = RecordExporter<TraceEntry>;

export type TelemetryKind = 'traces' | 'logs';

/**
 * The embedded platform's telemetry intake when it runs in this process (`flow-studio run` with
 * no platform URL, the studio): a batch is handed over as the JSON text it would have been sent
 * as, so it skips the socket, the HTTP parse and the JSON parse, and is stored exactly as the
 * POST would have stored it.
 */
export interface InProcessTelemetry {
  /** Stores a batch: `jsonText` is a JSON array of `count` records, secrets already masked. */
  ingest(kind: TelemetryKind, count: number, jsonText: string): Promise<void> | void;
}

/**
 * Ships batches to POST /v1/traces or /v1/logs (spec 1 §4.6) as a JSON array of flat records,
 * each already carrying its deployment and instance. The batch is serialized once and masked as
 * text, so a record costs one pass of JSON.stringify and nothing per secret.
 */
export class PlatformBatchExporter<T> implements RecordExporter<T> {
  constructor(
    private readonly kind: TelemetryKind,
    private readonly http: PlatformTransport,
    private readonly cap: Capability,
    private readonly timeoutMs = 5000,
  ) {}

  async export(batch: readonly T[], redactor: SecretRedactor | undefined): Promise<boolean> {
    const call = { jsonText: serializeBatch(batch, redactor), capability: this.cap, timeoutMs: this.timeoutMs };
    const res = this.kind === 'traces' ? await callRoute(this.http, postTraces, call) : await callRoute(this.http, postLogs, call);
    return res.status === 202 || res.status === 200 || res.status === 204;
  }
}

/** The same batches into the embedded platform in this process, which stores them in the order given. */
export class InProcessExporter<T> implements RecordExporter<T> {
  readonly overlapping = true;

  constructor(
    private readonly kind: TelemetryKind,
    private readonly intake: InProcessTelemetry,
  ) {}

  async export(batch: readonly T[], redactor: SecretRedactor | undefined, charge?: (ms: number) => void): Promise<boolean> {
    const text = serializeBatch(batch, redactor);
    // Serializing and storing are each about half of a batch's time on this thread: requests
    // that arrived meanwhile are answered between the two rather than after both.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const t0 = performance.now();
    const stored = this.intake.ingest(this.kind, batch.length, text);
    charge?.(performance.now() - t0);
    await stored;
    return true;
  }
}

/** The batch as a JSON array with every secret masked. */
export function serializeBatch(batch: readonly unknown[], redactor: SecretRedactor | undefined): string {
  const text = JSON.stringify(batch);
  if (!redactor || redactor.size === 0) return text;
  return redactor.redactJson(text) ?? JSON.stringify(redactor.redactValue(batch));
}
