import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace';
import { OTLPTraceExporter as OTLPProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { OTLPTraceExporter as OTLPJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import type { TraceEvent, TraceSpan } from '../core/trace.ts';
import type { OtelConfig } from './otel-config.ts';
import { spanOfCall, spanOfEvent, type SpanOrigin } from './otel-spans.ts';

/** A record on its way to the exporter: a run or step event, or a call span, without snapshots. */
export type ExportRecord = { event: TraceEvent } | { call: TraceSpan };

/**
 * The SDK half of the export: turns records into spans and hands them to the official batch
 * processor and OTLP exporter. It runs on a worker thread where it can (otel-worker.ts), so span
 * building, protobuf encoding and the garbage they leave never touch the request path.
 */
export class OtelPipeline {
  private readonly processor: BatchSpanProcessor;
  private readonly origin: SpanOrigin;

  constructor(config: Pick<OtelConfig, 'protocol' | 'batch'>, opts: { integration?: string; serviceName?: string }) {
    const exporter: SpanExporter = config.protocol === 'http/json' ? new OTLPJsonExporter() : new OTLPProtoExporter();
    this.processor = new BatchSpanProcessor({ exporter, ...config.batch });
    const resource = resourceFromAttributes({ 'service.name': opts.serviceName ?? 'flow-studio' }).merge(detectResources({ detectors: [envDetector] }));
    this.origin = { resource, scope: { name: 'flow-studio' }, integration: opts.integration };
  }

  take(records: readonly ExportRecord[]): void {
    for (const r of records) {
      const span = 'event' in r ? spanOfEvent(r.event, this.origin) : spanOfCall(r.call, this.origin);
      if (span) this.processor.onEnd(span);
    }
  }

  async shutdown(): Promise<void> {
    await this.processor.shutdown();
  }
}
