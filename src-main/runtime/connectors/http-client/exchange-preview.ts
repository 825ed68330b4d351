/**
 * What a trace shows of an outbound exchange: headers with credentials masked by name (values
 * that are secrets are masked again by the trace's redactor) and the start of each body as text.
 */

/** Headers whose values are credentials whatever they hold. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'api-key', 'x-auth-token', 'x-csrf-token']);

/** The most of a body a trace keeps. */
export const BODY_PREVIEW_BYTES = 2048;

export function previewHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    out[lower] = CREDENTIAL_HEADERS.has(lower) ? '[redacted]' : Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** The first BODY_PREVIEW_BYTES of a body as UTF-8 text, saying how much was left out. */
export function previewBody(body: Uint8Array | string | undefined): { text: string; bytes: number; truncated: boolean } | undefined {
  if (body === undefined) return undefined;
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  if (bytes.length === 0) return undefined;
  const head = bytes.subarray(0, BODY_PREVIEW_BYTES);
  return { text: Buffer.from(head).toString('utf8'), bytes: bytes.length, truncated: bytes.length > BODY_PREVIEW_BYTES };
}
