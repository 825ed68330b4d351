import type { Logger, LogRecord, LogSink } from '../core/logger.ts';
import type { TraceEntry } from '../../../shared/platform-api/telemetry.ts';
import type { TraceHub } from '../core/trace.ts';
import type { Identity } from './api-config.ts';
import type { PlatformTransport } from './api-http.ts';
import type { Capability } from './capability.ts';
import type { Telemetry } from './platform-services.ts';
import { TelemetryPipeline, type RecordExporter, type TelemetryPipelineStats } from './telemetry-pipeline.ts';
import { InProcessExporter, PlatformBatchExporter, type InProcessTelemetry, type TraceExporter } from './trace-exporter.ts';
import { TracePipeline, type TracePipelineStats } from './trace-pipeline.ts';
import { EVERY_RUN, type TraceSampling } from './trace-sampling.ts';

/**
 * Most records in one batch handed to a platform in this process. Such a batch is serialized and
 * stored on this thread while requests wait, in two turns of the event loop, so each is kept to a
 * fraction of a millisecond (about 0.2 ms to serialize and 0.3 ms to store 80 one-step runs'
 * records, 26 KB). Smaller batches shorten each turn but cost a commit each (~0.2 ms here). The
 * platform's own maxBatch bounds what one POST may carry, far more than a request should wait behind.
 */
export const IN_PROCESS_MAX_BATCH = 128;

/**
 * Longest a record waits for the rest of its batch: always on its way to a platform in this
 * process, and over HTTP while the request thread is saturated. Saturated, only ~1000 runs a
 * second are traced, and a batch of 128 took ~60 ms to fill (over HTTP, the 1 s interval):
 * as long as V8's young generation lasts there between collections or longer, so queued records
 * outlived two of them and were promoted, ~5 MB every 8 s, and the old generation's collections
 * that followed (7–19 ms each) set the traced run's p99. Within 16 ms a record dies young; the
 * price is smaller batches, at most ~60 a second.
 */
export const MAX_WAIT_MS = 16;

export interface TelemetryOptions {
  traceMaxBatch: number;
  /** Trace records held for export; a burst beyond it is dropped and counted, never waited for. */
  traceMaxQueue: number;
  traceFlushIntervalMs: number;
  /** Which runs are exported (`FLOW_TRACE_SAMPLE_RATIO`, `FLOW_TRACE_KEEP_FAILED`); every run by default. */
  traceSampling?: TraceSampling;
  /** Where trace records go; the platform's /v1/traces unless a test or another exporter says otherwise. */
  traceExporter?: TraceExporter;
  /** The embedded platform in this process: traces and logs are handed to it, not POSTed. */
  inProcess?: InProcessTelemetry;
  /** False: no trace records are sent (the hub stays inactive unless something else listens). */
  exportTraces?: boolean;
  logMaxBatch: number;
  /** Log records held for shipping; a burst beyond it is dropped rather than held in memory. */
  logMaxQueue: number;
  logFlushIntervalMs: number;
}

/**
 * Traces and logs to /v1/traces and /v1/logs (spec 1 §4.6). Every record carries the deployment
 * and instance beside its own fields. Nothing is collected for a capability the platform lacks:
 * the trace hub stays inactive, so flows pay nothing for tracing nobody receives.
 */
export class PlatformTelemetry implements Telemetry {
  private readonly traces: TracePipeline | undefined;
  private readonly logs: TelemetryPipeline<LogRecord> | undefined;
  readonly logSink: LogSink;

  constructor(
    http: PlatformTransport,
    traceCap: Capability,
    logCap: Capability,
    identity: Identity,
    opts: TelemetryOptions,
    log: Logger,
  ) {
    if (traceCap.usable && opts.exportTraces !== false) {
      const inProcess = opts.inProcess !== undefined && opts.traceExporter === undefined;
      this.traces = new TracePipeline(
        opts.traceExporter ?? exporterFor<TraceEntry>('traces', http, traceCap, opts.inProcess),
        { maxBatch: batchFor(opts.traceMaxBatch, inProcess), maxQueue: opts.traceMaxQueue, flushIntervalMs: opts.traceFlushIntervalMs, maxWaitMs: MAX_WAIT_MS, waitOnlySaturated: !inProcess, sampling: opts.traceSampling ?? EVERY_RUN },
        log,
        () => traceCap.usable,
      );
    }
    if (logCap.usable) {
      this.logs = new TelemetryPipeline<LogRecord>(
        exporterFor<LogRecord>('logs', http, logCap, opts.inProcess),
        { what: 'log records', maxBatch: batchFor(opts.logMaxBatch, opts.inProcess !== undefined), maxQueue: opts.logMaxQueue, flushIntervalMs: opts.logFlushIntervalMs, maxWaitMs: opts.inProcess !== undefined ? MAX_WAIT_MS : undefined },
        log,
        () => logCap.usable,
      );
    }
    const logs = this.logs;
    const { deploymentId: deployment, instanceId: instance } = identity;
    this.logSink = logs ? (record: LogRecord) => logs.push({ ...record, deployment, instance }) : () => {};
  }

  /** Records carry the runtime's deployment and instance already (the run context stamps them). */
  attachTraces(hub: TraceHub): () => void {
    return this.traces ? this.traces.attach(hub) : () => {};
  }

  tracesDropped(): number {
    return this.traces?.counts.dropped ?? 0;
  }

  /** For tests and the studio: how much is waiting and how much was dropped. */
  stats(): { logs?: TelemetryPipelineStats; traces?: TracePipelineStats } {
    return { logs: this.logs?.counts, traces: this.traces?.counts };
  }

  /** Sends what is queued now (tests; a clean stop goes through close). */
  async flush(): Promise<void> {
    await Promise.all([this.traces?.flush(), this.logs?.flush()]);
  }

  async close(): Promise<void> {
    await Promise.all([this.traces?.close(), this.logs?.close()]);
  }
}

function batchFor(maxBatch: number, inProcess: boolean): number {
  return inProcess ? Math.min(maxBatch, IN_PROCESS_MAX_BATCH) : maxBatch;
}

function exporterFor<T>(kind: 'traces' | 'logs', http: PlatformTransport, cap: Capability, inProcess: InProcessTelemetry | undefined): RecordExporter<T> {
  return inProcess ? new InProcessExporter<T>(kind, inProcess) : new PlatformBatchExporter<T>(kind, http, cap);
}
