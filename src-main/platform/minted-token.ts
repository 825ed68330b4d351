import { randomBytes } from 'node:crypto';

/**
 * A fresh bearer token: 24 random bytes in base64url, never starting with "-", so that it can be
 * given on a command line (`flow-studio manifest --token T`): a value starting with "-" reads as
 * an option there and is refused as ambiguous, which happened to one minted token in 64.
 */
export function mintToken(): string {
  for (;;) {
    const token = randomBytes(24).toString('base64url');
    if (!token.startsWith('-')) return token;
  }
}
