import { hash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { ApiError } from './api-error.ts';

/**
 * Checks `Authorization: Bearer <token>` in constant time: both sides are hashed first, so the
 * comparison takes the same time whatever the length or content of what was sent.
 */
export function bearerAuth(token: string): (req: IncomingMessage) => void {
  const expected = digest(token);
  return (req) => {
    const header = req.headers.authorization;
    if (header === undefined || !/^bearer /i.test(header)) {
      throw new ApiError(401, 'unauthorized', 'this platform server needs "Authorization: Bearer <token>" (FLOW_PLATFORM_API_TOKEN or FLOW_PLATFORM_API_TOKEN_FILE)', {
        'www-authenticate': 'Bearer',
      });
    }
    if (!timingSafeEqual(digest(header.slice(7).trim()), expected)) {
      throw new ApiError(401, 'unauthorized', 'the bearer token is not the one this platform server was started with', { 'www-authenticate': 'Bearer error="invalid_token"' });
    }
  };
}

// The one-shot hash: no Hash object per request (0.6 against 1.0 µs for a token, every request).
const digest = (value: string): Buffer => hash('sha256', value, 'buffer');
