import type { ServerResponse } from 'node:http';
import type { FlowResult } from '../../core/engine/chain.ts';
import { isRawContent, type Message } from '../../core/message.ts';
import { endThisTurn } from '../../../../shared/end-of-turn.ts';

export interface ResponseRules {
  /** Variables copied into response headers (lower-cased `content-type` already removed). */
  responseHeaders: readonly string[];
  /** keepAlive: false on the connector: every response closes its connection. */
  closeConnection: boolean;
  /** Masks secret values in error text. */
  redact(text: string): string;
}

/** `vars.httpStatus` when it is a whole number from 100 to 599 (spec 2 §2.4). */
export function statusOf(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^\d{3}$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 100 && n <= 599 ? n : undefined;
}

/** The status a failed run is answered with (spec 2 §2.4): what an error chain set, else 500. */
export function failureStatus(result: FlowResult): number {
  return (result.recovered && statusOf(result.message.vars.httpStatus)) ?? 500;
}

/**
 * Answers with a flow's result (spec 2 §2.4): completed → the body with 200 or vars.httpStatus;
 * dropped → 204; failed → 500 `{error}`, where an error chain may replace the status and the
 * body with ones it set itself.
 */
export function sendResult(res: ServerResponse, result: FlowResult, rules: ResponseRules): void {
  // Already answered (a 504 went out first, or the client left).
  if (res.headersSent || res.destroyed) return;
  const msg = result.message;
  if (result.outcome === 'dropped') {
    applyResponseHeaders(res, msg, rules.responseHeaders);
    sendBody(res, 204, null, rules.closeConnection);
    return;
  }
  if (result.outcome === 'failed') {
    // Only what an error chain set answers for a failure: its status, else 500; its body, else {error}.
    const status = failureStatus(result);
    if (result.recovered) applyResponseHeaders(res, msg, rules.responseHeaders);
    if (!result.recovered?.bodySet) {
      sendError(res, status, rules.redact(result.error?.message ?? 'the flow failed'), rules.closeConnection);
      return;
    }
    sendBody(res, status, msg.body, rules.closeConnection);
    return;
  }
  if (rules.responseHeaders.length > 0) applyResponseHeaders(res, msg, rules.responseHeaders);
  const override = msg.vars.httpStatus;
  sendBody(res, override === undefined ? 200 : (statusOf(override) ?? 200), msg.body, rules.closeConnection);
}

export function sendError(res: ServerResponse, status: number, message: string, closeConnection = false, headers?: Record<string, string>): void {
  if (headers) for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  sendBody(res, status, { error: message }, closeConnection);
}

/**
 * A body as JSON, or raw content with its own Content-Type; statuses that carry no body send none.
 * The status and headers are set now; the bytes go out with the rest of this turn's (shared/end-of-turn.ts).
 */
export function sendBody(res: ServerResponse, status: number, body: unknown, closeConnection: boolean): void {
  if (res.headersSent || res.destroyed) return;
  if (status < 200 || status === 204 || status === 304) {
    res.writeHead(status, closeConnection ? ['connection', 'close'] : undefined);
    endThisTurn(res, undefined);
    return;
  }
  let contentType: string;
  let payload: string | Uint8Array;
  if (isRawContent(body)) {
    contentType = body.contentType;
    payload = body.rawData;
  } else {
    contentType = 'application/json';
    payload = JSON.stringify(body === undefined ? null : body);
  }
  const length = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.byteLength;
  res.writeHead(
    status,
    closeConnection
      ? ['content-type', contentType, 'content-length', String(length), 'connection', 'close']
      : ['content-type', contentType, 'content-length', String(length)],
  );
  endThisTurn(res, payload);
}

/** Copies the listed variables into headers; only scalars, and a bad value is skipped, not fatal. */
export function applyResponseHeaders(res: ServerResponse, msg: Message, names: readonly string[]): void {
  for (const name of names) {
    const v = msg.vars[name];
    if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') continue;
    try {
      res.setHeader(name, String(v));
    } catch {
      // A value with a line break or other character a header may not hold is left out.
    }
  }
}
