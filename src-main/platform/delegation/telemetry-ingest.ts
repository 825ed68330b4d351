import { recordsOf, type TelemetryBatch, type TelemetryKind } from '../store/telemetry-store.ts';
import type { PlatformContext } from './platform-context.ts';

/**
 * Stores a batch and publishes it to the live feed: what POST /v1/traces and /v1/logs do once
 * the body is checked, and what the embedded platform does for a runtime in its own process,
 * whose batches skip the socket and the parse. Records are parsed only for a live-feed listener
 * or a store that keeps them one per row.
 */
export async function ingestTelemetry(p: PlatformContext, kind: TelemetryKind, batch: TelemetryBatch): Promise<void> {
  if (batch.count === 0) return;
  await p[kind].append(batch);
  if (p.events.telemetryActive) p.events.emit({ type: kind, at: p.clock.now(), records: recordsOf(batch) });
}
