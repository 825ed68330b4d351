import type { AuthStrategy } from './auth-strategy.ts';

/** RFC 7617 Basic credentials; a missing password is an empty one. */
export function basicAuth(username: string, password = ''): AuthStrategy {
  const value = `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
  return { authorization: () => value, rejected: () => {} };
}
