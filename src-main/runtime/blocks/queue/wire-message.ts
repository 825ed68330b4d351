import { activationOf } from '../../core/activation.ts';
import type { CompiledCel } from '../../core/cel.ts';
import { isRawContent, Message, toSnapshot } from '../../core/message.ts';
import type { Delivery } from '../../services/platform-services.ts';
import type { RunContext } from '../../core/engine/chain.ts';
import { parseTraceparent, traceHeaders } from '../../core/trace-context.ts';

/**
 * How a flow message travels on a queue or topic: a JSON body with string headers. The
 * correlation id rides in a header, and the W3C `traceparent` of the publishing step while it is
 * traced, so a consumer's run joins the publisher's trace; raw content
 * travels as base64 with its content type in a header and arrives as raw content again.
 */
const CORRELATION = 'x-correlation-id';
const RAW_TYPE = 'x-flow-raw-content-type';

export interface WireMessage {
  body: unknown;
  headers: Record<string, string>;
}

/**
 * `publishSpanId`, when the publish is reported as a span of its own (a PRODUCER span), is the
 * consumer's parent; otherwise the publishing step is.
 */
export function toWire(body: unknown, correlationId: string, headers: Record<string, string> = {}, run?: RunContext, publishSpanId?: string): WireMessage {
  const out: Record<string, string> = { ...headers, [CORRELATION]: correlationId };
  if (run?.traceId !== undefined && out.traceparent === undefined) {
    Object.assign(out, traceHeaders(run.traceId, publishSpanId ?? run.stepSpanId ?? run.spanId!, run.sampled ?? true, run.traceState));
  }
  if (isRawContent(body)) {
    out[RAW_TYPE] = body.contentType;
    const bytes = typeof body.rawData === 'string' ? Buffer.from(body.rawData) : body.rawData;
    return { body: Buffer.from(bytes).toString('base64'), headers: out };
  }
  // JSON only on the wire: bytes nested in a body become text (or base64), as in traces.
  return { body: toSnapshot(body), headers: out };
}

export function fromWire(body: unknown, headers: Record<string, string>): unknown {
  const rawType = headers[RAW_TYPE];
  if (rawType !== undefined && typeof body === 'string') return { contentType: rawType, rawData: new Uint8Array(Buffer.from(body, 'base64')) };
  return body;
}

/** The message a delivery becomes: body, `vars.subject`, `vars.headers`, `vars.messageId`, `vars.deliveryCount`. */
export function deliveryMessage(d: Delivery, subject: string): Message {
  const { [CORRELATION]: correlationId, [RAW_TYPE]: _raw, ...headers } = d.headers;
  const vars: Record<string, unknown> = { subject, headers, deliveryCount: d.deliveryCount };
  if (d.messageId !== undefined) vars.messageId = d.messageId;
  const msg = new Message(fromWire(d.body, d.headers), vars, correlationId);
  msg.traceParent = parseTraceparent(d.headers.traceparent, d.headers.tracestate);
  return msg;
}

/** Header values from a map of CEL expressions; values render as strings (non-strings as JSON). */
export async function renderHeaders(exprs: Record<string, CompiledCel> | undefined, msg: Message): Promise<Record<string, string>> {
  if (!exprs) return {};
  const act = activationOf(msg);
  const out: Record<string, string> = {};
  for (const [name, e] of Object.entries(exprs)) {
    const v = await e.evaluate(act);
    if (v !== null && v !== undefined) out[name] = typeof v === 'string' ? v : JSON.stringify(v);
  }
  return out;
}

export const headersSetting = {
  type: 'map',
  description: 'Message headers, one CEL expression each; the consumer sees them in `vars.headers`.',
  values: { type: 'cel', description: 'Header value.' },
  example: { tenant: 'vars.tenant' },
} as const;
