import { badRequest } from './api-error.ts';

/**
 * Readers for the fields of a JSON request body and for query parameters. Each failure names
 * the field and what it should have been, because the runtime quotes it to a person debugging.
 */
export type JsonObject = Record<string, unknown>;

export function requiredString(body: JsonObject, field: string, maxLength = 1024): string {
  const value = body[field];
  if (value === undefined || value === null || value === '') throw badRequest('missing_field', `the request body needs a non-empty string "${field}"`);
  return checkString(value, field, maxLength);
}

export function optionalString(body: JsonObject, field: string, maxLength = 1024): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  return checkString(value, field, maxLength);
}

function checkString(value: unknown, field: string, maxLength: number): string {
  if (typeof value !== 'string') throw badRequest('invalid_field', `"${field}" must be a string, got ${JSON.stringify(value)}`);
  if (value.length > maxLength) throw badRequest('invalid_field', `"${field}" is ${value.length} characters long; the limit is ${maxLength}`);
  return value;
}

/** A number of seconds (fractions allowed) within [min, max]; larger values are cut to max. */
export function optionalSeconds(body: JsonObject, field: string, fallback: number, min: number, max: number): number {
  const value = body[field];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min) {
    throw badRequest('invalid_field', `"${field}" must be a number of seconds >= ${min}, got ${JSON.stringify(value)}`);
  }
  return Math.min(value, max);
}

/** An integer within [min, max]; larger values are cut to max. */
export function optionalCount(body: JsonObject, field: string, fallback: number, min: number, max: number): number {
  const value = body[field];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw badRequest('invalid_field', `"${field}" must be an integer >= ${min}, got ${JSON.stringify(value)}`);
  }
  return Math.min(value, max);
}

export function optionalBoolean(body: JsonObject, field: string): boolean {
  const value = body[field];
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw badRequest('invalid_field', `"${field}" must be true or false, got ${JSON.stringify(value)}`);
  return value;
}

/** Optional map of string to string, e.g. message headers. */
export function optionalStringMap(body: JsonObject, field: string): Record<string, string> | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw badRequest('invalid_field', `"${field}" must be an object of string values`);
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== 'string') throw badRequest('invalid_field', `"${field}.${k}" must be a string, got ${JSON.stringify(v)}`);
  }
  return value as Record<string, string>;
}

/** Settle handles: `handles: string[]`, or a single `handle` for convenience. */
export function settleHandles(body: JsonObject): string[] {
  if (typeof body.handle === 'string' && body.handles === undefined) return [body.handle];
  const handles = body.handles;
  if (!Array.isArray(handles) || handles.some((h) => typeof h !== 'string')) {
    throw badRequest('missing_field', 'the request body needs "handles": an array of the handle strings returned by receive');
  }
  return handles as string[];
}

export function requiredQuery(query: URLSearchParams, name: string, example: string): string {
  const value = query.get(name);
  if (value === null || value === '') throw badRequest('missing_parameter', `the query parameter "${name}" is required, e.g. ${example}`);
  return value;
}

/** `limit` of a listing: absent means the server's default; an integer >= 1 otherwise, cut to max. */
export function queryLimit(query: URLSearchParams, fallback: number, max: number): number {
  const raw = query.get('limit');
  if (raw === null) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < 1) throw badRequest('invalid_parameter', `the query parameter "limit" must be an integer >= 1, got "${raw}"`);
  return Math.min(value, max);
}

const INT64_MAX = 9223372036854775807n;

/**
 * `X-Object-Version`: an int64 >= 0 (spec 1 §2.4), absent meaning 0. Every int64 is valid; one
 * past 2^53 can never equal a stored version (the server-wide counter stays far below), so
 * its rounding as a number only ever yields the 409 it deserves. An empty header is a 400:
 * read as absent it would turn a conditional DELETE into an unconditional one.
 */
export function objectVersionHeader(raw: string | string[] | undefined): number {
  if (raw === undefined) return 0;
  const text = (Array.isArray(raw) ? raw.join(', ') : raw).trim();
  if (!/^\d{1,19}$/.test(text) || BigInt(text) > INT64_MAX) {
    throw badRequest(
      'invalid_version',
      `X-Object-Version must be an integer from 0 to ${INT64_MAX} (0 or no header creates), got ${text === '' ? 'an empty header' : `"${text.slice(0, 40)}"`}`,
    );
  }
  return Number(text);
}

/** Optional non-negative integer header, e.g. X-Agent-Iteration. */
export function countHeader(raw: string | string[] | undefined, name: string): number {
  if (raw === undefined || raw === '') return 0;
  const text = Array.isArray(raw) ? raw[0] : raw;
  if (!/^\d{1,16}$/.test(text.trim())) throw badRequest('invalid_header', `${name} must be an integer >= 0, got "${text.slice(0, 40)}"`);
  return Number(text.trim());
}

/** Names used as in-process keys (subjects, consumer groups) may not contain NUL. */
export function checkName(value: string, what: string): string {
  if (value.includes('\0')) throw badRequest('invalid_name', `${what} may not contain a NUL character`);
  return value;
}
