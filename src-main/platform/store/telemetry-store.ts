export type TelemetryKind = 'traces' | 'logs';

/** A batch of trace or log records: its JSON text (an array, or `{records: [...]}`) and how many it holds. */
export interface TelemetryBatch {
  count: number;
  text: string;
  /** The records parsed, when the caller has them (the HTTP route validated them); else read from `text` if needed. */
  records?: readonly unknown[];
}

export interface TelemetryRecord {
  id: number;
  receivedAt: number;
  record: unknown;
}

export interface Retention {
  /** Most records kept; the oldest go first. */
  records: number;
  /** Most bytes of record JSON kept; the oldest go first. */
  bytes: number;
  /** Records older than this are deleted. */
  seconds: number;
}

/** Trace or log records as the runtime sent them (§4.6), kept within a retention of count, bytes and age. */
export interface TelemetryStore {
  /** Stores one batch; its JSON text is kept as is where the store can. */
  append(batch: TelemetryBatch): Promise<void>;
  /** Records and bytes of record JSON kept now (bounded by retainRecords and retainBytes). */
  readonly kept: { records: number; bytes: number };
  /** Applies every bound now (the server's periodic sweep). */
  prune(): Promise<void>;
  /** Newest first; pass the smallest id of a page as `beforeId` for the next one. */
  list(options?: { limit?: number; beforeId?: number }): Promise<TelemetryRecord[]>;
}

/** The batch's records, parsed from its text when the caller did not pass them. */
export function recordsOf(batch: TelemetryBatch): readonly unknown[] {
  if (batch.records) return batch.records;
  return recordsOfText(batch.text);
}

/** The records of a batch's JSON text: an array, or the `records` array of an object. */
export function recordsOfText(text: string): unknown[] {
  const parsed = JSON.parse(text) as unknown;
  if (Array.isArray(parsed)) return parsed;
  const records = (parsed as { records?: unknown }).records;
  return Array.isArray(records) ? records : [];
}
