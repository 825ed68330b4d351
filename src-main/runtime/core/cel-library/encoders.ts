import { celError, type CelHandler } from './cel-values.ts';

/** The cel-go encoders extension: standard base64, decoding with or without padding. */

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export const ENCODERS: Record<string, CelHandler> = {
  'base64.encode(bytes): string': (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('base64'),
  'base64.decode(string): bytes': (s: string) => {
    if (!BASE64.test(s) || s.replace(/=+$/, '').length % 4 === 1) throw celError('base64.decode(): the text is not valid base64');
    return new Uint8Array(Buffer.from(s, 'base64'));
  },
};
