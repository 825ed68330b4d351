import type { TraceContext } from './trace-context.ts';

/** Raw content travels as the exact bytes (or text) with its content type. */
export interface RawContent {
  contentType: string;
  rawData: Uint8Array | string;
}

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A body is a JSON value, null, or raw content. JSON values may hold raw parts (multipart). */
export type Body = unknown;

export type Outcome = 'completed' | 'dropped' | 'failed';

export interface MessageError {
  message: string;
  /** The step path where it happened, e.g. `flows.orders.steps[2]`. */
  step?: string;
  /** That step's block type (`template`, `http-call`…), for a log line a person reads. */
  block?: string;
  /**
   * The HTTP status the failure calls for (409 for a conflict, 404 for a required miss, 502 for a
   * failed upstream call…), 500 when it has no obvious one. An error chain can answer with it.
   */
  status?: number;
}

let counter = 0;
const prefix = Math.random().toString(36).slice(2, 8);

let lastMs = 0;
let lastMsText = '';

export function newCorrelationId(): string {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  // Formatting the time costs more than the rest of the id; at high rates many ids share a millisecond.
  const now = Date.now();
  if (now !== lastMs) {
    lastMs = now;
    lastMsText = now.toString(36);
  }
  return `${prefix}-${lastMsText}-${counter.toString(36)}`;
}

/**
 * One unit of work moving through a flow. Blocks mutate it in place and return it: copying on
 * every step would cost more than every block together on the hot path.
 */
export class Message {
  body: Body;
  vars: Record<string, unknown>;
  correlationId: string;
  error: MessageError | undefined;
  /** The caller's trace context (an incoming `traceparent`), which the run's trace joins. */
  traceParent: TraceContext | undefined;
  /**
   * Whether this message's runs are traced, decided once when first asked (the http connector
   * asks on arrival, so the exchange it captures and the run share one fate); undefined until then.
   */
  traced: boolean | undefined;

  constructor(body: Body = null, vars: Record<string, unknown> = {}, correlationId?: string) {
    this.body = body;
    this.vars = vars;
    this.correlationId = correlationId ?? newCorrelationId();
    this.error = undefined;
    this.traceParent = undefined;
    this.traced = undefined;
  }

  /** A deep copy, for sub-flows and snapshots; raw bytes are shared since nobody mutates them. */
  clone(): Message {
    const copy = new Message(deepCopy(this.body), deepCopy(this.vars) as Record<string, unknown>, this.correlationId);
    copy.error = this.error ? { ...this.error } : undefined;
    copy.traceParent = this.traceParent;
    copy.traced = this.traced;
    return copy;
  }
}

export function isRawContent(value: unknown): value is RawContent {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.contentType === 'string' && (typeof v.rawData === 'string' || v.rawData instanceof Uint8Array);
}

export function deepCopy(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Uint8Array) return value;
  if (value instanceof Date) return new Date(value.getTime());
  if (Array.isArray(value)) return value.map(deepCopy);
  if (value instanceof Map) return new Map([...value].map(([k, v]) => [k, deepCopy(v)]));
  const out: Record<string, unknown> = {};
  const record = value as Record<string, unknown>;
  for (const k in record) if (Object.hasOwn(record, k)) out[k] = deepCopy(record[k]);
  return out;
}

/** A JSON-safe view of a value, for traces and the studio: bytes become text or base64. */
export function toSnapshot(value: unknown, depth = 0): unknown {
  if (depth > 32) return '…';
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (typeof value !== 'object') return value;
  if (value instanceof Uint8Array) {
    const text = Buffer.from(value).toString('utf8');
    return text.includes('\uFFFD') ? { base64: Buffer.from(value).toString('base64') } : text;
  }
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((v) => toSnapshot(v, depth + 1));
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [String(k), toSnapshot(v, depth + 1)]));
  // for…in over own keys: a snapshot of every step of every studio run, where Object.entries'
  // pair array per field was most of the copy's garbage.
  const out: Record<string, unknown> = {};
  const record = value as Record<string, unknown>;
  for (const k in record) if (Object.hasOwn(record, k)) out[k] = toSnapshot(record[k], depth + 1);
  return out;
}
