import type { IncomingHttpHeaders } from 'node:http';
import { JsonTooDeepError, parseBoundedJson } from '../../../../shared/bounded-json.ts';
import { BadRequestError } from './bad-request.ts';
import { decodeMultipart, isMultipart } from './multipart-body.ts';

/** `vars.query`: the first value of each key, always an object (spec 2 §2.3). */
export function queryOf(queryString: string): Record<string, string> {
  const query: Record<string, string> = {};
  if (queryString === '') return query;
  for (const [key, value] of new URLSearchParams(queryString)) {
    if (Object.hasOwn(query, key)) continue;
    if (key === '__proto__') Object.defineProperty(query, key, { value, enumerable: true, writable: true, configurable: true });
    else query[key] = value;
  }
  return query;
}

/** A request header as one string; repeated headers are joined as HTTP allows. */
export function headerValue(headers: IncomingHttpHeaders, lowerName: string): string | undefined {
  const v = headers[lowerName];
  return Array.isArray(v) ? v.join(', ') : v;
}

/**
 * The message body of a request (spec 2 §2.3): multipart is decoded whatever `rawBody` says;
 * `rawBody` keeps the bytes as `{contentType, rawData}`; otherwise JSON, where an empty body is
 * null and malformed JSON a BadRequestError. Synchronous except for multipart.
 */
export function decodeBody(raw: Buffer, contentType: string | undefined, rawBody: boolean): unknown {
  if (isMultipart(contentType)) return decodeMultipart(raw, contentType);
  if (raw.length === 0) return null;
  if (rawBody) return { contentType: contentType ?? 'application/octet-stream', rawData: raw };
  const text = raw.toString('utf8');
  try {
    return parseBoundedJson(text);
  } catch (err) {
    if (err instanceof JsonTooDeepError) throw new BadRequestError(`JSON body too deeply nested: ${err.message}; the limit is ${err.limit} levels`);
    if (text.trim() === '') return null;
    throw new BadRequestError(`malformed JSON body: ${(err as Error).message}; send JSON, or set rawBody: true on the route to accept other content`);
  }
}
