import type { IncomingMessage, ServerResponse } from 'node:http';
import { JsonTooDeepError, parseBoundedJson } from '../../../shared/bounded-json.ts';
import { endThisTurn, endsThisTurn } from '../../../shared/end-of-turn.ts';
import { closeOnceBodyIsIn, declaredOver } from '../../../shared/refused-upload.ts';
import { ApiError, badRequest, tooLarge } from './api-error.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Answers with a JSON body; `json` may be a ready-made JSON text (hot paths build it by hand).
 * Like every answer here: status and headers now, the bytes with the rest of this turn's (shared/end-of-turn.ts).
 */
export function sendJson(res: ServerResponse, status: number, json: unknown, headers?: Record<string, string | number>): void {
  const text = typeof json === 'string' ? json : JSON.stringify(json);
  res.writeHead(status, { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(text), ...headers });
  endThisTurn(res, text);
}

export function sendBytes(res: ServerResponse, status: number, bytes: Buffer, headers: Record<string, string | number>): void {
  res.writeHead(status, { 'content-type': 'application/octet-stream', 'content-length': bytes.length, ...headers });
  endThisTurn(res, bytes);
}

export function sendEmpty(res: ServerResponse, status: number, headers?: Record<string, string | number>): void {
  res.writeHead(status, headers);
  endThisTurn(res, undefined);
}

export function sendError(res: ServerResponse, err: ApiError): void {
  if (res.headersSent) {
    // Answered in full already (its bytes go out at the end of the turn): it goes out as it is.
    if (!endsThisTurn(res)) res.destroy();
    return;
  }
  if (err.status === 413 && !res.req.complete) return refuseUpload(res, err);
  sendJson(res, err.status, { error: { code: err.code, message: err.message } }, err.headers);
}

/**
 * Answers a 413 while the client may still be sending its body (it announced too much, or its
 * chunked body grew past the limit), so that it reads the answer (shared/refused-upload.ts); the
 * wait for the body is bounded by the request's body idle timeout.
 */
function refuseUpload(res: ServerResponse, err: ApiError): void {
  const text = JSON.stringify({ error: { code: err.code, message: err.message } });
  res.writeHead(err.status, { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(text), connection: 'close', ...err.headers });
  // Written but not ended: ending a Connection: close answer closes the socket (node:http).
  res.write(text);
  closeOnceBodyIsIn(res.req, res, bodyIdleTimeout(res.req));
}

/** Per request, the longest pause allowed between body bytes (set by the server); 10 s when absent. */
const BODY_IDLE_MS = Symbol('body idle timeout');
type WithIdleTimeout = IncomingMessage & { [BODY_IDLE_MS]?: number };

/** Sets how long this request's body may pause (a property on the request: a WeakMap entry per request cost the collector). */
export function setBodyIdleTimeout(req: IncomingMessage, ms: number): void {
  (req as WithIdleTimeout)[BODY_IDLE_MS] = ms;
}

function bodyIdleTimeout(req: IncomingMessage): number {
  return (req as WithIdleTimeout)[BODY_IDLE_MS] ?? 10_000;
}

function bodyStalled(ms: number): ApiError {
  return new ApiError(408, 'body_timeout', `the request body stalled: no bytes arrived for ${ms / 1000} s; send the body without pauses`, { connection: 'close' });
}

/** A body being read: kept on its request, so the listeners are shared functions, not closures made per request. */
const READING = Symbol('body being read');
interface Reading {
  chunks: Buffer[];
  size: number;
  maxBytes: number;
  refuse: (maxBytes: number) => ApiError;
  resolve: (body: Buffer) => void;
  reject: (err: unknown) => void;
  /** Restarted on every chunk: no new timer per chunk. */
  idle: NodeJS.Timeout;
  idleMs: number;
}
type BeingRead = IncomingMessage & { [READING]?: Reading };

/**
 * Reads the whole request body, refusing with 413 once it passes `maxBytes`: at once when the
 * Content-Length says so, else on the chunk that crosses it. An oversized body is never held in
 * memory; sendError answers the 413 at once and drops the rest as it arrives (refuseUpload).
 * A body that stalls for the request's idle timeout (10 s unless the server set one) is a 408.
 */
export function readBody(req: IncomingMessage, maxBytes: number, refuse: (maxBytes: number) => ApiError = bodyTooLarge): Promise<Buffer> {
  if (declaredOver(req, maxBytes)) return Promise.reject(refuse(maxBytes));
  return new Promise((resolve, reject) => {
    const idleMs = bodyIdleTimeout(req);
    const idle = setTimeout(bodyIdle, idleMs, req as BeingRead);
    idle.unref();
    (req as BeingRead)[READING] = { chunks: [], size: 0, maxBytes, refuse, resolve, reject, idle, idleMs };
    req.on('data', bodyData);
    req.once('end', bodyEnd);
    req.once('error', bodyFailed);
  });
}

function bodyData(this: BeingRead, chunk: Buffer): void {
  const r = this[READING]!;
  r.idle.refresh();
  r.size += chunk.length;
  if (r.size > r.maxBytes) {
    stopReading(this, r);
    r.reject(r.refuse(r.maxBytes));
    return;
  }
  r.chunks.push(chunk);
}

function bodyEnd(this: BeingRead): void {
  const r = this[READING];
  if (!r) return;
  stopReading(this, r);
  r.resolve(r.chunks.length === 1 ? r.chunks[0] : Buffer.concat(r.chunks, r.size));
}

function bodyFailed(this: BeingRead, err: Error): void {
  const r = this[READING];
  if (!r) return;
  stopReading(this, r);
  r.reject(err);
}

function bodyIdle(req: BeingRead): void {
  const r = req[READING];
  if (!r) return;
  stopReading(req, r);
  r.reject(bodyStalled(r.idleMs));
}

function stopReading(req: BeingRead, r: Reading): void {
  clearTimeout(r.idle);
  req.off('data', bodyData);
  req.off('end', bodyEnd);
  req[READING] = undefined;
}

export function bodyTooLarge(maxBytes: number): ApiError {
  return tooLarge('body_too_large', `the request body is larger than the ${maxBytes} bytes this route accepts`);
}

/** Reads a JSON object body; an empty body reads as `{}` so bodiless POSTs stay valid. */
export async function readJsonObject(req: IncomingMessage, maxBytes: number, refuse?: (maxBytes: number) => ApiError): Promise<Record<string, unknown>> {
  const value = await readJson(req, maxBytes, refuse);
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw badRequest('invalid_body', `the request body must be a JSON object, got ${describeJson(value)}`);
  }
  return value as Record<string, unknown>;
}

/** Reads any JSON value; undefined when the body is empty. */
export async function readJson(req: IncomingMessage, maxBytes: number, refuse?: (maxBytes: number) => ApiError): Promise<unknown> {
  const bytes = await readBody(req, maxBytes, refuse);
  if (bytes.length === 0) return undefined;
  return parseJsonText(bytes.toString('utf8'), 'the request body');
}

/**
 * JSON.parse with a nesting limit (shared/bounded-json.ts, MAX_JSON_DEPTH) and an error that says where the text broke but never quotes it: a body may hold
 * a secret, and error messages end up in logs.
 */
export function parseJsonText(text: string, what: string): unknown {
  try {
    return parseBoundedJson(text);
  } catch (err) {
    if (err instanceof JsonTooDeepError) throw badRequest('json_too_deep', `${what} is refused: ${err.message}`);
    const position = /position (\d+)/.exec((err as Error).message)?.[1];
    const where = position === undefined ? (text.trim() === '' ? 'it is empty' : 'it ends early or has a stray character') : `it breaks at character ${position}`;
    throw badRequest('invalid_json', `${what} is not valid JSON: ${where}`);
  }
}

function describeJson(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
