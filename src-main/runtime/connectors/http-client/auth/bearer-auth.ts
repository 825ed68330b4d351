import type { AuthStrategy } from './auth-strategy.ts';

/** `Authorization: Bearer <token>` with a fixed token. */
export function bearerAuth(token: string): AuthStrategy {
  const value = `Bearer ${token}`;
  return { authorization: () => value, rejected: () => {} };
}
