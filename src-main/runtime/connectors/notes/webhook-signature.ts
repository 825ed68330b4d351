import { createHmac, timingSafeEqual } from 'node:crypto';

const SIGNATURE = /^sha256=([0-9a-fA-F]{64})$/;

/** `sha256=<hex>` of the HMAC-SHA256 over the exact request bytes, keyed by the verification token. */
export function signWebhook(body: Uint8Array | string, token: string): string {
  return `sha256=${createHmac('sha256', token).update(body).digest('hex')}`;
}

/**
 * True only for a well-formed signature matching the bytes. A malformed header (wrong prefix,
 * wrong length, not hex) is simply not valid: timingSafeEqual would throw on unequal lengths.
 */
export function isValidWebhookSignature(body: Uint8Array | string, token: string, header: string): boolean {
  const match = SIGNATURE.exec(header.trim());
  if (!match) return false;
  const given = Buffer.from(match[1], 'hex');
  const expected = createHmac('sha256', token).update(body).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The token of a subscription handshake: a body that is exactly `{verification_token: "<token>"}`,
 * nothing more (spec 3 §3: an event that merely has such a field is not a handshake).
 */
export function handshakeToken(bytes: Uint8Array | string): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(typeof bytes === 'string' ? bytes : Buffer.from(bytes).toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const token = (body as Record<string, unknown>).verification_token;
  return Object.keys(body).length === 1 && typeof token === 'string' && token !== '' ? token : undefined;
}
