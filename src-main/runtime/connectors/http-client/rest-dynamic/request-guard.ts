/**
 * The checks rest-dynamic makes before any request (spec 2 §2.10). A computed path is caller
 * input in a proxy flow, so everything that could leave the base URL or the allowed prefix is
 * refused rather than repaired.
 */

/** A scheme (`http:`, `javascript:`) makes a reference absolute (RFC 3986 §4.3). */
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/** Browsers and many servers treat a backslash like a slash, so both separate segments. */
const SEPARATOR = /[/\\]/;

/** Servers decode more than once in places; every decoding a server might apply is checked. */
const MAX_DECODINGS = 3;

export class RefusedRequest extends Error {
  constructor(reason: string) {
    super(`rest-dynamic refused the request, nothing was sent: ${reason}`);
    this.name = 'RefusedRequest';
  }
}

export function checkMethod(value: unknown, allowed: readonly string[]): string {
  if (typeof value !== 'string') throw new RefusedRequest(`method must be a string, got ${JSON.stringify(value) ?? typeof value}`);
  const method = value.toUpperCase();
  if (!allowed.includes(method)) throw new RefusedRequest(`method ${JSON.stringify(method.slice(0, 20))} is not allowed; allowed: ${allowed.join(', ')}`);
  return method;
}

/** Returns the path with a leading slash, or refuses it. */
export function checkPath(value: unknown, prefix: string): string {
  if (typeof value !== 'string') throw new RefusedRequest(`path must be a string, got ${JSON.stringify(value) ?? typeof value}`);
  if (SCHEME.test(value) || /^[/\\]{2}/.test(value)) {
    throw new RefusedRequest('path must be relative to the connector’s base URL; a full URL is refused');
  }
  // A fragment is never sent to a server.
  const hash = value.indexOf('#');
  const sent = hash < 0 ? value : value.slice(0, hash);
  const q = sent.indexOf('?');
  const query = q < 0 ? '' : sent.slice(q);
  let pathPart = q < 0 ? sent : sent.slice(0, q);
  if (hasDotDotSegment(pathPart)) throw new RefusedRequest('path may not contain a ".." segment');
  if (!pathPart.startsWith('/')) pathPart = `/${pathPart}`;
  if (!underPrefix(pathPart, prefix)) throw new RefusedRequest(`path is outside the allowed prefix ${normalizePrefix(prefix)}`);
  return encodeUnsafe(pathPart + query);
}

function hasDotDotSegment(path: string): boolean {
  let current = path;
  for (let i = 0; i <= MAX_DECODINGS; i++) {
    if (current.split(SEPARATOR).some(isDotDot)) return true;
    const next = decodeLenient(current);
    if (next === current) return false;
    current = next;
  }
  // Still changing after several decodings: nobody writes paths like that by accident.
  return true;
}

/** `..`, and `..;x` which some servers read as `..` with a path parameter. */
function isDotDot(segment: string): boolean {
  return segment === '..' || segment.startsWith('..;');
}

function decodeLenient(text: string): string {
  return text.replace(/%[0-9A-Fa-f]{2}/g, (escape) => String.fromCharCode(parseInt(escape.slice(1), 16)));
}

/** `/api` allows `/api`, `/api/…` and `/api?…`, never `/apiary`. */
export function underPrefix(pathPart: string, prefix: string): boolean {
  const p = normalizePrefix(prefix);
  if (p === '') return true;
  return pathPart === p || pathPart.startsWith(`${p}/`);
}

export function normalizePrefix(prefix: string): string {
  const trimmed = prefix.trim().replace(/\/+$/, '');
  if (trimmed === '') return '';
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

/** Spaces and other characters a request line cannot carry are percent-encoded, as URL parsers do. */
function encodeUnsafe(path: string): string {
  if (!/[^\x21-\x7e]/.test(path)) return path;
  try {
    return path.replace(/[^\x21-\x7e]+/g, (run) => encodeURIComponent(run));
  } catch {
    throw new RefusedRequest('path is not valid text (a lone surrogate)');
  }
}
