import type { IncomingMessage, ServerResponse } from 'node:http';
import { JsonTooDeepError, parseBoundedJson } from '../../../shared/bounded-json.ts';
import { badRequest, tooLarge, type ApiError } from './api-error.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

/** Answers with a JSON body; `json` may be a ready-made JSON text (hot paths build it by hand). */
export function sendJson(res: ServerResponse, status: number, json: unknown, headers?: Record<string, string | number>): void {
  const text = typeof json === 'string' ? json : JSON.stringify(json);
  res.writeHead(status, { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function sendBytes(res: ServerResponse, status: number, bytes: Buffer, headers: Record<string, string | number>): void {
  res.writeHead(status, { 'content-type': 'application/octet-stream', 'content-length': bytes.length, ...headers });
  res.end(bytes);
}

export function sendEmpty(res: ServerResponse, status: number, headers?: Record<string, string | number>): void {
  res.writeHead(status, headers);
  res.end();
}

export function sendError(res: ServerResponse, err: ApiError): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendJson(res, err.status, { error: { code: err.code, message: err.message } }, err.headers);
}

/**
 * Reads the whole request body, refusing with 413 as soon as it passes `maxBytes` (from the
 * Content-Length when the client sent one, so an oversized upload is not read at all).
 */
export function readBody(req: IncomingMessage, maxBytes: number, refuse: (maxBytes: number) => ApiError = bodyTooLarge): Promise<Buffer> {
  if (Number(req.headers['content-length']) > maxBytes) return Promise.reject(refuse(maxBytes));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) {
        req.off('data', onData);
        req.resume();
        reject(refuse(maxBytes));
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)));
    req.once('error', reject);
  });
}

function bodyTooLarge(maxBytes: number): ApiError {
  return tooLarge('body_too_large', `the request body is larger than the ${maxBytes} bytes this route accepts`);
}

/** Reads a JSON object body; an empty body reads as `{}` so bodiless POSTs stay valid. */
export async function readJsonObject(req: IncomingMessage, maxBytes: number): Promise<Record<string, unknown>> {
  const value = await readJson(req, maxBytes);
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw badRequest('invalid_body', `the request body must be a JSON object, got ${describeJson(value)}`);
  }
  return value as Record<string, unknown>;
}

/** Reads any JSON value; undefined when the body is empty. */
export async function readJson(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const bytes = await readBody(req, maxBytes);
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

export function describeJson(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
