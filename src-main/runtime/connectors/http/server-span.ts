import type { IncomingMessage } from 'node:http';
import type { Message } from '../../core/message.ts';
import { newSpanId, newTraceId, parseTraceparent } from '../../core/trace-context.ts';
import { headerValue } from './request-message.ts';

/** The request's span, opened when the request arrives and reported once it is answered. */
export interface ServerSpanStart {
  traceId: string;
  spanId: string;
  /** The caller's span, from its `traceparent`. */
  parentSpanId: string | undefined;
  sampled: boolean | undefined;
  startedAt: number;
  t0: number;
}

/**
 * Reads the caller's W3C trace context (a malformed `traceparent` starts a new trace, as the
 * spec asks) and, when server spans are reported, makes the request's server span the parent of the run.
 */
export function serverSpanStart(req: IncomingMessage, msg: Message, reported: boolean): ServerSpanStart | undefined {
  const caller = parseTraceparent(headerValue(req.headers, 'traceparent'), headerValue(req.headers, 'tracestate'));
  // Nobody takes server spans: the run joins the caller directly rather than a span never reported.
  if (!reported) {
    msg.traceParent = caller;
    return undefined;
  }
  const span: ServerSpanStart = {
    traceId: caller?.traceId ?? newTraceId(),
    spanId: newSpanId(),
    parentSpanId: caller?.spanId,
    sampled: caller?.sampled,
    startedAt: Date.now(),
    t0: performance.now(),
  };
  msg.traceParent = { traceId: span.traceId, spanId: span.spanId, sampled: caller?.sampled, traceState: caller?.traceState };
  return span;
}
