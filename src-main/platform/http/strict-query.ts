import { badRequest } from './api-error.ts';

const MALFORMED_PERCENT = /%(?![0-9A-Fa-f]{2})/;
const NOT_URL_TEXT = /[^\x21-\x7e]/;

/**
 * Parses a query string like URLSearchParams, but refuses what URLSearchParams silently
 * repairs: malformed percent-encoding and bytes that are not valid UTF-8. URLSearchParams turns
 * both `%FF` and `%FE` into U+FFFD, so two different keys would address one KV entry (and the
 * same for `name`, `userId`…); here either is a 400 naming the parameter.
 */
export function parseStrictQuery(raw: string): URLSearchParams {
  const query = new URLSearchParams();
  if (raw === '') return query;
  // Walked with indexOf rather than split('&'): split is slow on a fresh string (see pathSegments).
  for (let start = 0; start <= raw.length; ) {
    let end = raw.indexOf('&', start);
    if (end === -1) end = raw.length;
    if (end > start) appendPair(query, raw.slice(start, end));
    start = end + 1;
  }
  return query;
}

function appendPair(query: URLSearchParams, pair: string): void {
  const eq = pair.indexOf('=');
  const rawName = eq === -1 ? pair : pair.slice(0, eq);
  const name = decodeComponent(rawName, undefined);
  query.append(name, eq === -1 ? '' : decodeComponent(pair.slice(eq + 1), name));
}

function decodeComponent(text: string, name: string | undefined): string {
  if (NOT_URL_TEXT.test(text)) throw badRequest('invalid_query', `${what(text, name)} has a character that is not percent-encoded; percent-encode the UTF-8 bytes of the value`);
  // Most names and values are plain text: nothing to decode.
  if (text.indexOf('%') === -1 && text.indexOf('+') === -1) return text;
  if (MALFORMED_PERCENT.test(text)) throw badRequest('invalid_query', `${what(text, name)} is not valid percent-encoding: a % must be followed by two hex digits`);
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    throw badRequest('invalid_query', `${what(text, name)} is not valid UTF-8 once percent-decoded; percent-encode the UTF-8 bytes of the value`);
  }
}

function what(text: string, name: string | undefined): string {
  return name === undefined ? `the query parameter name "${text.slice(0, 80)}"` : `the query parameter "${name.slice(0, 80)}"`;
}
