/**
 * The connector's own credential (spec 2 §5). It is only asked for when a request does not
 * already carry an Authorization header, so a per-caller credential never mints a token.
 */
export interface AuthStrategy {
  /** The whole Authorization header value, scheme included. */
  authorization(): string | Promise<string>;
  /** The upstream answered 401 to a request carrying `value`: a cached token is stale. */
  rejected(value: string): void;
}
