import { badRequest } from './api-error.ts';

/**
 * The request checks that are not schema checks. Request bodies and query parameters are
 * checked against the route schemas of shared/platform-api/ (request-validation.ts, through
 * `implement`); headers and names stay here because a schema cannot say their rules:
 * X-Object-Version is an int64 (more than a JSON number holds exactly) and an empty one is
 * refused rather than read as absent; a counting header may arrive repeated (an array); and
 * the NUL rule holds for names used as in-process keys (subjects, consumer groups) wherever
 * they come from: a path parameter, a body field or the studio's in-process calls, always
 * with its own code. Each failure names the header or name and what it should have been.
 */

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
