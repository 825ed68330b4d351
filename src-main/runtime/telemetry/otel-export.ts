import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace';
import { OTLPTraceExporter as OTLPProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { OTLPTraceExporter as OTLPJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import type { Logger } from '../core/logger.ts';
import type { TraceHub, TraceSink } from '../core/trace.ts';
import type { OtelConfig } from './otel-config.ts';
import { spanOfCall, spanOfEvent, type SpanOrigin } from './otel-spans.ts';
import { traceSampler } from './trace-sampling.ts';

export interface OtelExport {
  /** Exports what is queued and stops; the runtime calls it when it stops. */
  shutdown(): Promise<void>;
  /** Spans handed to the exporter so far (for tests and the bench). */
  readonly exported: number;
}

/**
 * Sends the runtime's runs, steps and calls as OTLP spans through the official exporter and batch
 * processor. The processor queues and drops under overload on its own (OTEL_BSP_* variables), so a
 * slow collector never slows a request. Records reach this sink already redacted by the hub.
 */
export function attachOtelExport(hub: TraceHub, config: OtelConfig, opts: { log: Logger; integration?: string; serviceName?: string }): OtelExport {
  for (const w of config.warnings) opts.log.warn(w);
  const exporter: SpanExporter = config.protocol === 'http/json' ? new OTLPJsonExporter() : new OTLPProtoExporter();
  const processor = new BatchSpanProcessor({ exporter, ...config.batch });
  const resource = resourceFromAttributes({ 'service.name': opts.serviceName ?? 'flow-studio' }).merge(detectResources({ detectors: [envDetector] }));
  const origin: SpanOrigin = { resource, scope: { name: 'flow-studio' }, integration: opts.integration };
  const sampled = traceSampler(config);
  let exported = 0;
  const sink: TraceSink = {
    emit(event) {
      if (!event.traceId || !sampled(event.traceId, event.sampled)) return;
      const span = spanOfEvent(event, origin);
      if (span) {
        exported++;
        processor.onEnd(span);
      }
    },
    span(call) {
      if (!call.traceId || !sampled(call.traceId, call.sampled)) return;
      const span = spanOfCall(call, origin);
      if (span) {
        exported++;
        processor.onEnd(span);
      }
    },
  };
  const detach = hub.add(sink);
  return {
    get exported() {
      return exported;
    },
    async shutdown() {
      detach();
      await processor.shutdown();
    },
  };
}
