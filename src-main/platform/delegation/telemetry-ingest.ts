import type { LogRecord, TraceEntry } from '../../../shared/platform-api/telemetry.ts';
import { recordsOf, type TelemetryBatch, type TelemetryKind } from '../store/telemetry-store.ts';
import type { PlatformContext } from './platform-context.ts';

/** What a batch of each kind holds: trace entries (TraceRecord or TraceSpan), or log records. */
export interface TelemetryRecords {
  traces: TraceEntry;
  logs: LogRecord;
}

/**
 * Stores a batch and publishes it to the live feed: what POST /v1/traces and /v1/logs do once
 * the body is checked, and what the embedded platform does for a runtime in its own process,
 * whose batches skip the socket and the parse. Records are parsed only for a live-feed listener
 * or a store that keeps them one per row. A batch from this process is not checked: its runtime
 * serialized the same shared shapes the route checks.
 */
export async function ingestTelemetry<K extends TelemetryKind>(p: PlatformContext, kind: K, batch: TelemetryBatch & { records?: ReadonlyArray<TelemetryRecords[K]> }): Promise<void> {
  if (batch.count === 0) return;
  await p[kind].append(batch);
  if (!p.events.telemetryActive) return;
  const at = p.clock.now();
  // Parsed from the text when the route did not parse it: records of the kind's shape either way.
  const records = recordsOf(batch);
  p.events.emit(kind === 'traces' ? { type: 'traces', at, records: records as readonly TraceEntry[] } : { type: 'logs', at, records: records as readonly LogRecord[] });
}
