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

/**
 * 32 random bits as 8 lowercase hex digits. Math.random is what OpenTelemetry's own
 * RandomIdGenerator uses: ids must be unique, not secret, and this runs on every traced run and
 * step, so it builds one short string rather than one per digit.
 */
function hex8(): string {
  return ((Math.random() * 0x100000000) >>> 0).toString(16).padStart(8, '0');
}

/** All zeros is invalid in both ids; the chance is negligible but the fix is free. */
function nonZero(id: string): string {
  return /^0+$/.test(id) ? id.slice(0, -1) + '1' : id;
}

export function newTraceId(): string {
  return nonZero(hex8() + hex8() + hex8() + hex8());
}

export function newSpanId(): string {
  return nonZero(hex8() + hex8());
}
