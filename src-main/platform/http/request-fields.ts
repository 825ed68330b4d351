import { badRequest } from './api-error.ts';

/**
 * Readers the route schemas (shared/platform-api/, checked by request-validation.ts) do not
 * replace: the management routes' body fields and query parameters (not yet moved onto their
 * schemas), X-Object-Version's int64 rule, counting headers, and the NUL rule of in-process
 * names. Each failure names the field and what it should have been.
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

export function requiredQuery(query: URLSearchParams, name: string, example: string): string {
  const value = query.get(name);
  if (value === null || value === '') throw badRequest('missing_parameter', `the query parameter "${name}" is required, e.g. ${example}`);
  return value;
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
