import type { IncomingMessage, ServerResponse } from 'node:http';
import { closeOnceBodyIsIn } from '../../../../shared/refused-upload.ts';
import { sendError } from './response-writer.ts';

/** The body is over the route's maxBodyBytes (answered 413). */
export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`request body is larger than maxBodyBytes (${limit} bytes)`);
  }
}

/** The body paused longer than the connector allows between bytes (answered 408). */
export class BodyStalledError extends Error {
  constructor(readonly idleMs: number) {
    super(`the request body stalled: no bytes arrived for ${idleMs / 1000} s; send the body without pauses`);
  }
}

const EMPTY = Buffer.alloc(0);


/** The client waits for `100 Continue` before sending its body (curl does for large uploads). */
export function expectsContinue(req: IncomingMessage): boolean {
  const expect = req.headers.expect;
  return expect !== undefined && expect.toLowerCase() === '100-continue';
}

/**
 * Answers 413 so the client actually sees it, and closes the connection. A client waiting for
 * `100 Continue` never sends its body, so the connection closes at once; one still sending reads
 * the answer while its body is drained (shared/refused-upload.ts), for at most `idleMs` of pause.
 */
export function refuseTooLarge(req: IncomingMessage, res: ServerResponse, limit: number, idleMs: number): void {
  const message = new BodyTooLargeError(limit).message;
  if (req.complete || expectsContinue(req)) return sendError(res, 413, message, true);
  if (res.headersSent || res.destroyed) return;
  const payload = JSON.stringify({ error: message });
  res.writeHead(413, ['content-type', 'application/json', 'content-length', String(Buffer.byteLength(payload)), 'connection', 'close']);
  // Written but not ended: ending a Connection: close answer closes the socket (node:http).
  res.write(payload);
  closeOnceBodyIsIn(req, res, idleMs);
}

/**
 * Called once with the whole body, or with BodyTooLargeError. Not called when the client leaves
 * mid-body: nobody is left to answer, and the request is dropped with its socket.
 */
export type BodyCallback = (err: BodyTooLargeError | BodyStalledError | undefined, body: Buffer) => void;

/** What one read in progress keeps; the listeners below are shared and find it on the request. */
interface Reading {
  chunks: Buffer[];
  size: number;
  limit: number;
  done: BodyCallback;
  /** Restarted on every chunk (refresh: no new timer per chunk); fires when the body pauses for idleMs. */
  idle: NodeJS.Timeout;
  idleMs: number;
}

const READING = Symbol('reading');
type ReadingRequest = IncomingMessage & { [READING]?: Reading };

/**
 * Reads the whole body, never holding more than `limit` bytes: a declared Content-Length over the
 * limit fails at once without reading, and a chunked body fails on the chunk that crosses it.
 * After a failure the rest of the body is discarded as it arrives (data events with no listener
 * are dropped), so a 50 MiB upload against a 1 MiB route costs no memory. A callback rather than
 * a promise: the request path then takes no promise turn when its flow answers synchronously.
 * `done` is called synchronously when there is no body to wait for. A body that pauses for
 * `idleMs` fails with BodyStalledError.
 */
export function readBody(req: IncomingMessage, limit: number, idleMs: number, done: BodyCallback): void {
  const declared = req.headers['content-length'];
  if (declared !== undefined) {
    const length = Number(declared);
    if (length > limit) return done(new BodyTooLargeError(limit), EMPTY);
    if (length === 0) return done(undefined, EMPTY);
  } else if (req.headers['transfer-encoding'] === undefined) {
    // Neither length nor chunking: HTTP/1.1 says there is no body.
    return done(undefined, EMPTY);
  }
  const idle = setTimeout(bodyStalled, idleMs, req as ReadingRequest);
  idle.unref();
  (req as ReadingRequest)[READING] = { chunks: [], size: 0, limit, done, idle, idleMs };
  req.on('data', onData);
  req.on('end', onEnd);
}

// Module-level listeners (`this` is the request): a per-request closure would cost more than the
// read itself on the hot path. No `close` listener, and none removed after `end` (no event
// follows it): each listener added and removed costs a request ~0.15 µs, and an abandoned
// request needs no answer.
function onData(this: ReadingRequest, chunk: Buffer): void {
  const r = this[READING]!;
  r.idle.refresh();
  r.size += chunk.length;
  if (r.size > r.limit) {
    finish(this);
    r.chunks = [];
    // Keep the stream flowing with nobody listening: the remainder is read and dropped.
    this.resume();
    r.done(new BodyTooLargeError(r.limit), EMPTY);
    return;
  }
  r.chunks.push(chunk);
}

function onEnd(this: ReadingRequest): void {
  const r = this[READING]!;
  clearTimeout(r.idle);
  this[READING] = undefined;
  r.done(undefined, r.chunks.length === 1 ? r.chunks[0] : Buffer.concat(r.chunks, r.size));
}

function bodyStalled(req: ReadingRequest): void {
  const r = req[READING];
  if (r === undefined) return;
  finish(req);
  r.done(new BodyStalledError(r.idleMs), EMPTY);
}

function finish(req: ReadingRequest): void {
  clearTimeout(req[READING]!.idle);
  req.off('data', onData);
  req.off('end', onEnd);
  req[READING] = undefined;
}
