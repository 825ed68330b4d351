import { isRawContent } from '../../core/message.ts';
import { renderMultipart } from './multipart-body.ts';

/** Strings go verbatim, anything else as compact JSON (spec 2 §2.10). */
export function renderValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('utf8');
  return JSON.stringify(value) ?? 'null';
}

/** A map of header or query values rendered as strings; a null value leaves the entry out. */
export function renderMap(entries: Iterable<[string, unknown]>, into: Record<string, string> = {}): Record<string, string> {
  for (const [name, value] of entries) {
    if (value === null || value === undefined) continue;
    into[name] = renderValue(value);
  }
  return into;
}

/** Appends query parameters to a path that may already carry some. */
export function withQuery(path: string, params: Record<string, string>): string {
  let query = '';
  for (const name in params) query += `${query ? '&' : ''}${encodeURIComponent(name)}=${encodeURIComponent(params[name])}`;
  if (!query) return path;
  return path + (path.includes('?') ? (path.endsWith('?') || path.endsWith('&') ? '' : '&') : '?') + query;
}

export type BodyType = 'raw' | 'multipart';

/**
 * The request body from the body expression's value (spec 2 §2.9): a string verbatim, raw
 * content as its bytes with its content type, anything else as JSON; with `multipart` a parts
 * map rendered with its own Content-Type. Sets Content-Type in `headers` unless the block set
 * one (multipart always sets its own). A null value sends no body, so a proxy flow can pass a
 * GET's empty body on.
 */
export function renderBody(value: unknown, bodyType: BodyType, headers: Record<string, string>): Uint8Array | string | undefined {
  if (bodyType === 'multipart') {
    const { body, contentType } = renderMultipart(value);
    for (const name of Object.keys(headers)) if (name.toLowerCase() === 'content-type') delete headers[name];
    headers['content-type'] = contentType;
    return body;
  }
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (value instanceof Uint8Array) return value;
  if (isRawContent(value)) {
    // An http source with rawBody gives a bodiless GET an empty raw body: nothing to send on.
    if (value.rawData.length === 0) return undefined;
    setDefaultContentType(headers, value.contentType);
    return value.rawData;
  }
  setDefaultContentType(headers, 'application/json');
  return JSON.stringify(value);
}

function setDefaultContentType(headers: Record<string, string>, type: string): void {
  for (const name in headers) if (name.toLowerCase() === 'content-type') return;
  if (type) headers['content-type'] = type;
}
