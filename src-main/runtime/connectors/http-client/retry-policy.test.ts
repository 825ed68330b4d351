import { describe, expect, it } from 'vitest';
import { BACKOFF_BASE_MS, retryDelay } from './retry-policy.ts';

const policy = { maxAttempts: 5, maxBackoffMs: 30_000 };
const now = Date.parse('2025-01-01T00:00:00Z');

describe('the wait before retrying a 429', () => {
  it('takes Retry-After as delay-seconds', () => {
    expect(retryDelay('1', 1, policy, now)).toBe(1000);
    expect(retryDelay(' 0 ', 1, policy, now)).toBe(0);
  });

  it('takes Retry-After as an HTTP date, a past date meaning now', () => {
    expect(retryDelay('Wed, 01 Jan 2025 00:00:05 GMT', 1, policy, now)).toBe(5000);
    expect(retryDelay('Tue, 31 Dec 2024 23:00:00 GMT', 1, policy, now)).toBe(0);
  });

  it('caps every wait at maxBackoff, a large Retry-After included', () => {
    expect(retryDelay('60', 1, { ...policy, maxBackoffMs: 2000 }, now)).toBe(2000);
    expect(retryDelay(undefined, 10, { ...policy, maxBackoffMs: 2000 }, now)).toBe(2000);
  });

  it('backs off exponentially without a usable Retry-After', () => {
    expect(retryDelay(undefined, 1, policy, now)).toBe(BACKOFF_BASE_MS);
    expect(retryDelay(undefined, 2, policy, now)).toBe(BACKOFF_BASE_MS * 2);
    expect(retryDelay('soon', 3, policy, now)).toBe(BACKOFF_BASE_MS * 4);
    expect(retryDelay('-5', 1, policy, now)).toBe(BACKOFF_BASE_MS);
  });
});
