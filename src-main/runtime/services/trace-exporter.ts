import type { SecretRedactor } from '../core/logger.ts';
import type { TraceEvent } from '../core/trace.ts';
import type { PlatformTransport } from './api-http.ts';
import type { Capability } from './capability.ts';

/**
 * Where trace records leave the runtime: the one seam every destination implements (the
 * platform's /v1/traces today; an OpenTelemetry exporter beside it). It gets whole batches, off
 * the request path, with secrets not yet masked: masking is the exporter's, on what it sends.
 */
export interface TraceExporter {
  /** Sends one batch. Resolves true when the destination took it; false or a rejection drops it. */
  export(batch: readonly TraceEvent[], redactor: SecretRedactor | undefined): Promise<boolean>;
}

/**
 * Ships batches to POST /v1/traces (spec 1 §4.6) as flat records, each already carrying its
 * deployment and instance. The batch is serialized once and masked as text, so a record costs
 * one pass of JSON.stringify and nothing per secret.
 */
export class PlatformTraceExporter implements TraceExporter {
  constructor(
    private readonly http: PlatformTransport,
    private readonly cap: Capability,
    private readonly timeoutMs = 5000,
  ) {}

  get usable(): boolean {
    return this.cap.usable;
  }

  async export(batch: readonly TraceEvent[], redactor: SecretRedactor | undefined): Promise<boolean> {
    const res = await this.http.call({ method: 'POST', path: '/v1/traces', jsonText: serializeBatch(batch, redactor), capability: this.cap, timeoutMs: this.timeoutMs });
    return res.status === 202 || res.status === 200 || res.status === 204;
  }
}

/** The batch as a JSON array with every secret masked. */
export function serializeBatch(batch: readonly TraceEvent[], redactor: SecretRedactor | undefined): string {
  const text = JSON.stringify(batch);
  if (!redactor || redactor.size === 0) return text;
  return redactor.redactJson(text) ?? JSON.stringify(redactor.redactValue(batch));
}
