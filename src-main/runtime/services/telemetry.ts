import type { Logger, LogRecord, LogSink } from '../core/logger.ts';
import type { TraceHub } from '../core/trace.ts';
import type { Identity } from './api-config.ts';
import type { PlatformTransport } from './api-http.ts';
import { BatchShipper } from './batch-shipper.ts';
import type { Capability } from './capability.ts';
import type { Telemetry } from './platform-services.ts';

export interface TelemetryOptions {
  traceMaxBatch: number;
  traceFlushIntervalMs: number;
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
  private readonly traces: BatchShipper | undefined;
  private readonly logs: BatchShipper | undefined;
  readonly logSink: LogSink;

  constructor(
    http: PlatformTransport,
    private readonly traceCap: Capability,
    logCap: Capability,
    private readonly identity: Identity,
    opts: TelemetryOptions,
    log: Logger,
  ) {
    if (traceCap.usable) {
      this.traces = new BatchShipper(
        http,
        traceCap,
        { path: '/v1/traces', maxBatch: opts.traceMaxBatch, maxQueue: opts.traceMaxBatch * 4, flushIntervalMs: opts.traceFlushIntervalMs },
        log,
      );
    }
    if (logCap.usable) {
      this.logs = new BatchShipper(
        http,
        logCap,
        { path: '/v1/logs', maxBatch: opts.logMaxBatch, maxQueue: opts.logMaxQueue, flushIntervalMs: opts.logFlushIntervalMs },
        log,
      );
    }
    const logs = this.logs;
    const { deploymentId: deployment, instanceId: instance } = identity;
    this.logSink = logs ? (record: LogRecord) => logs.push({ ...record, deployment, instance }) : () => {};
  }

  attachTraces(hub: TraceHub): () => void {
    const shipper = this.traces;
    if (!shipper || !this.traceCap.usable) return () => {};
    const { deploymentId: deployment, instanceId: instance } = this.identity;
    const detach = hub.add({
      emit: (event) => {
        // Turned off mid-run (a 501): stop making the hub record anything.
        if (!this.traceCap.usable) return detach();
        shipper.push({ ...event, deployment, instance });
      },
    });
    return detach;
  }

  /** For tests and the studio: how much is waiting and how much was dropped. */
  stats(): { logs?: { queued: number; dropped: number; sent: number }; traces?: { queued: number; dropped: number; sent: number } } {
    const of = (s: BatchShipper | undefined) => (s ? { queued: s.queued, dropped: s.dropped, sent: s.sent } : undefined);
    return { logs: of(this.logs), traces: of(this.traces) };
  }

  async close(): Promise<void> {
    await Promise.all([this.traces?.close(), this.logs?.close()]);
  }
}
