import type { TelemetryBackend } from '../store/platform-store.ts';
import type { PlatformContext } from './platform-context.ts';

export type TelemetryKind = 'traces' | 'logs';

/** A batch of trace or log records: its JSON text (an array, or `{records: [...]}`) and how many it holds. */
export interface TelemetryBatch {
  count: number;
  text: string;
  /** The records parsed, when the caller has them (the HTTP route validated them); else read from `text` if needed. */
  records?: readonly unknown[];
}

/**
 * Stores a batch and publishes it to the live feed: what POST /v1/traces and /v1/logs do once
 * the body is checked, and what the embedded platform does for a runtime in its own process,
 * whose batches skip the socket and the parse. Records are parsed only for a live-feed listener
 * or a store that keeps them one per row.
 */
export async function ingestTelemetry(p: PlatformContext, kind: TelemetryKind, batch: TelemetryBatch): Promise<void> {
  if (batch.count === 0) return;
  const store: TelemetryBackend = p[kind];
  await store.append(batch);
  if (p.events.telemetryActive) p.events.emit({ type: kind, at: p.clock.now(), records: recordsOf(batch) });
}

/** The batch's records, parsed from its text when the caller did not pass them. */
export function recordsOf(batch: TelemetryBatch): readonly unknown[] {
  if (batch.records) return batch.records;
  const parsed = JSON.parse(batch.text) as unknown;
  if (Array.isArray(parsed)) return parsed;
  const records = (parsed as { records?: unknown }).records;
  return Array.isArray(records) ? records : [];
}
