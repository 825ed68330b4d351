/** When to try a 429 again and how long to wait first (spec 2 §2.8). */
export interface RetryPolicy {
  /** Total attempts including the first; 1 or less disables retries. */
  maxAttempts: number;
  /** Caps every wait, a large Retry-After included. */
  maxBackoffMs: number;
}

/** First wait of the exponential backoff used when a 429 carries no usable Retry-After. */
export const BACKOFF_BASE_MS = 500;

/**
 * Milliseconds to wait before the attempt after `attempt` (1-based). Retry-After is either
 * delay-seconds or an HTTP date (RFC 9110 §10.2.3); a date in the past means now.
 */
export function retryDelay(retryAfter: string | undefined, attempt: number, policy: RetryPolicy, now = Date.now()): number {
  const fromHeader = retryAfterMs(retryAfter, now);
  const wait = fromHeader ?? BACKOFF_BASE_MS * 2 ** (attempt - 1);
  return Math.max(0, Math.min(wait, policy.maxBackoffMs));
}

function retryAfterMs(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // Date.parse also accepts bare numbers and other shapes; every HTTP date form starts with a weekday.
  if (!/^[A-Za-z]{3}/.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
