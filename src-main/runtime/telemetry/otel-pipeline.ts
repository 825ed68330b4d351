import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace';
import { OTLPTraceExporter as OTLPProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { OTLPTraceExporter as OTLPJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import type { TraceRecord, TraceSpan } from '../core/trace.ts';
import type { OtelConfig } from './otel-config.ts';
import { spanOfCall, spanOfEvent, spanOfRequestRun, type SpanOrigin } from './otel-spans.ts';

/** A record on its way to the exporter: a run or step event, or a call span, without snapshots. */
export type ExportRecord = { event: TraceRecord } | { call: TraceSpan };

/** How long a request's server span or a run waits for its partner before it is exported alone. */
const PAIRING_WAIT_MS = 250;

/**
 * The SDK half of the export: turns records into spans and hands them to the official batch
 * processor and OTLP exporter. It runs on a worker thread where it can (otel-worker.ts), so span
 * building, protobuf encoding and the garbage they leave never touch the request path.
 *
 * A request an http route answered and the run it started become one SERVER span (see
 * spanOfRequestRun). The run ends before its response is written, so the two records meet here:
 * whichever comes first waits, for at most PAIRING_WAIT_MS, and is exported alone if its partner
 * does not come (a queue consumer's run has none; an SSE stream outlives its run's wait).
 */
export class OtelPipeline {
  private readonly processor: BatchSpanProcessor;
  private readonly origin: SpanOrigin;
  /** Server spans by their span id, and runs by their parent's, waiting for each other. */
  private servers = new Map<string, TraceSpan>();
  private runs = new Map<string, TraceRecord>();
  private older = { servers: new Map<string, TraceSpan>(), runs: new Map<string, TraceRecord>() };
  private timer: NodeJS.Timeout | undefined;

  constructor(config: Pick<OtelConfig, 'protocol' | 'batch'>, opts: { integration?: string; deployment?: string; serviceName?: string }) {
    const exporter: SpanExporter = config.protocol === 'http/json' ? new OTLPJsonExporter() : new OTLPProtoExporter();
    this.processor = new BatchSpanProcessor({ exporter, ...config.batch });
    // What one runtime shares across its spans is said once per export, on the resource.
    const own: Record<string, string> = { 'service.name': opts.serviceName ?? 'flow-studio' };
    if (opts.integration) own['flow.integration'] = opts.integration;
    if (opts.deployment) own['flow.deployment'] = opts.deployment;
    const resource = resourceFromAttributes(own).merge(detectResources({ detectors: [envDetector] }));
    this.origin = { resource, scope: { name: 'flow-studio' } };
  }

  take(records: readonly ExportRecord[]): void {
    for (const r of records) {
      if ('event' in r) {
        const e = r.event;
        if (e.kind === 'run' && e.parentSpanId !== undefined) {
          const server = take(this.servers, this.older.servers, e.parentSpanId);
          if (server) this.end(spanOfRequestRun(e, server, this.origin));
          else this.runs.set(e.parentSpanId, e);
        } else this.end(spanOfEvent(e, this.origin));
        continue;
      }
      const c = r.call;
      if (c.kind === 'server' && c.spanId !== undefined) {
        const run = take(this.runs, this.older.runs, c.spanId);
        if (run) this.end(spanOfRequestRun(run, c, this.origin));
        else this.servers.set(c.spanId, c);
      } else this.end(spanOfCall(c, this.origin));
    }
    if ((this.servers.size > 0 || this.runs.size > 0) && !this.timer) this.timer = setTimeout(() => this.age(), PAIRING_WAIT_MS).unref();
  }

  /** Exports what waits; an export that fails now is lost like any other, never a failed stop. */
  async shutdown(): Promise<void> {
    clearTimeout(this.timer);
    this.age();
    this.age();
    clearTimeout(this.timer);
    await this.processor.shutdown().catch(() => {});
  }

  /** Exports alone what waited a whole round without its partner; what came since waits one more. */
  private age(): void {
    this.timer = undefined;
    for (const e of this.older.runs.values()) this.end(spanOfEvent(e, this.origin));
    for (const c of this.older.servers.values()) this.end(spanOfCall(c, this.origin));
    this.older = { servers: this.servers, runs: this.runs };
    this.servers = new Map();
    this.runs = new Map();
    if (this.older.servers.size > 0 || this.older.runs.size > 0) this.timer = setTimeout(() => this.age(), PAIRING_WAIT_MS).unref();
  }

  private end(span: ReadableSpan | undefined): void {
    if (span) this.processor.onEnd(span);
  }
}

function take<T>(current: Map<string, T>, older: Map<string, T>, key: string): T | undefined {
  const found = current.get(key) ?? older.get(key);
  if (found !== undefined) {
    current.delete(key);
    older.delete(key);
  }
  return found;
}
