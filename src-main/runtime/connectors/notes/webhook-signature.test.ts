import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isValidWebhookSignature, signWebhook } from './webhook-signature.ts';

const body = '{"type":"page.content_updated","entity":{"id":"p-1","type":"page"}}';
const key = 'secret_verification_token_123';
const independently = (b: string | Buffer, k: string) => `sha256=${createHmac('sha256', k).update(b).digest('hex')}`;

describe('webhook signatures', () => {
  it('accept the RFC 4231 HMAC-SHA256 test vector', () => {
    const vector = 'sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843';
    expect(isValidWebhookSignature('what do ya want for nothing?', 'Jefe', vector)).toBe(true);
    expect(signWebhook('what do ya want for nothing?', 'Jefe')).toBe(vector);
  });

  it('accept a signature computed independently with node:crypto, over a string or the same bytes', () => {
    const signature = independently(body, key);
    expect(isValidWebhookSignature(body, key, signature)).toBe(true);
    expect(isValidWebhookSignature(new TextEncoder().encode(body), key, signature)).toBe(true);
    expect(isValidWebhookSignature(body, key, signature.toUpperCase().replace('SHA256=', 'sha256='))).toBe(true);
  });

  it('refuse a body, key or signature tampered by one byte', () => {
    const signature = independently(body, key);
    const tamperedBody = body.slice(0, 10) + String.fromCharCode(body.charCodeAt(10) ^ 1) + body.slice(11);
    const tamperedKey = key.slice(0, -1) + String.fromCharCode(key.charCodeAt(key.length - 1) ^ 1);
    const lastHex = signature.at(-1) === '0' ? '1' : '0';
    expect(isValidWebhookSignature(tamperedBody, key, signature)).toBe(false);
    expect(isValidWebhookSignature(body, tamperedKey, signature)).toBe(false);
    expect(isValidWebhookSignature(body, key, signature.slice(0, -1) + lastHex)).toBe(false);
    // One byte more at the end of the exact bytes, e.g. a trailing newline a proxy added.
    expect(isValidWebhookSignature(body + '\n', key, signature)).toBe(false);
  });

  it('treat malformed signatures as invalid without throwing', () => {
    const hex = createHmac('sha256', key).update(body).digest('hex');
    for (const header of ['', hex, `sha1=${hex}`, `sha256=${hex.slice(2)}`, `sha256=${hex}00`, `sha256=${'zz'.repeat(32)}`, 'sha256=', `sha256=${hex.slice(0, 63)}`]) {
      expect(() => isValidWebhookSignature(body, key, header)).not.toThrow();
      expect(isValidWebhookSignature(body, key, header)).toBe(false);
    }
  });
});
