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
