import { systemClock, type Clock } from '../../../../shared/clock.ts';
import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';

/** What the connector reads past the cap so the connection can return to the pool (spec 2 §8). */
export const DRAIN_BYTES = 4096;

export class ResponseTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`the response body is larger than maxResponseBytes (${limit} bytes); raise maxResponseBytes on the connector if the response is expected`);
    this.name = 'ResponseTooLargeError';
  }
}

export class RequestTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no complete response within ${timeoutMs}ms`);
    this.name = 'RequestTimeoutError';
  }
}

export interface ExchangeOptions {
  /** Response body cap in bytes. */
  cap: number;
  /** Bounds the whole exchange, from queueing for a connection to the last body byte. */
  timeoutMs: number;
  /** What the timeout runs on; default the system clock. */
  clock?: Clock;
  /** A 429 that will be retried: its body is only drained, never kept. */
  discard429: boolean;
}

export interface Exchanged {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * One request and its response over an undici dispatcher, reading the body straight from the
 * connection rather than through a stream. Past the cap, at most DRAIN_BYTES more are read so a
 * slightly oversized response still frees its connection for the pool; beyond that (or when
 * Content-Length already says so) the request is aborted, which drops the connection instead of
 * downloading the rest.
 */
export function exchange(dispatcher: Dispatcher, request: Dispatcher.DispatchOptions, opts: ExchangeOptions): Promise<Exchanged> {
  return new Promise<Exchanged>((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    let settled = false;
    let status = 0;
    let headers: IncomingHttpHeaders = {};
    let chunks: Buffer[] = [];
    let size = 0;
    /** Bytes kept; 0 while discarding a 429 about to be retried. */
    let keep = opts.cap;
    let tooLarge = false;

    const finish = (err: Error | undefined, value?: Exchanged): void => {
      if (settled) return;
      settled = true;
      clock.clearTimeout(timer);
      if (err) reject(err);
      else resolve(value!);
    };
    const abort = (reason: Error, value?: Exchanged): void => {
      finish(value ? undefined : reason, value);
      // A request still queued for a connection is aborted as soon as it gets one.
      controller?.abort(reason);
    };
    const clock = opts.clock ?? systemClock;
    const timer = clock.setTimeout(() => abort(new RequestTimeoutError(opts.timeoutMs)), opts.timeoutMs);

    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(c) {
        controller = c;
        if (settled) c.abort(new Error('request abandoned'));
      },
      onResponseStart(_c, statusCode, responseHeaders) {
        status = statusCode;
        headers = responseHeaders;
        chunks = [];
        size = 0;
        if (statusCode === 429 && opts.discard429) keep = 0;
        const length = request.method === 'HEAD' ? undefined : contentLength(responseHeaders);
        if (keep > 0 && length !== undefined && length > opts.cap) {
          tooLarge = true;
          if (length > opts.cap + DRAIN_BYTES) abort(new ResponseTooLargeError(opts.cap));
        }
      },
      onResponseData(_c, chunk) {
        size += chunk.length;
        if (keep === 0) {
          // Still a 429 to retry; only its connection is lost.
          if (size > DRAIN_BYTES) abort(new Error('429 body too large to drain'), { status, headers, body: Buffer.alloc(0) });
          return;
        }
        if (size <= opts.cap) {
          chunks.push(chunk);
          return;
        }
        tooLarge = true;
        chunks = [];
        if (size > opts.cap + DRAIN_BYTES) abort(new ResponseTooLargeError(opts.cap));
      },
      onResponseEnd() {
        if (tooLarge) return finish(new ResponseTooLargeError(opts.cap));
        finish(undefined, { status, headers, body: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size) });
      },
      onResponseError(_c, err) {
        finish(err);
      },
    };
    try {
      dispatcher.dispatch(request, handler);
    } catch (err) {
      finish(err as Error);
    }
  });
}

function contentLength(headers: IncomingHttpHeaders): number | undefined {
  const v = headers['content-length'];
  if (v === undefined) return undefined;
  const n = Number(v);
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}
