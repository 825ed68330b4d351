import { useEffect, useState } from 'react';

/** However busy the page, a value waits at most this long. */
const IDLE_TIMEOUT_MS = 150;

/**
 * `value` as it was when the page was last idle: a costly part of a view (a form that parses
 * the file) follows an interaction after the interaction's own update was painted, not in the
 * same frame. Until then the previous value stays shown; `same` tells when there is nothing to
 * wait for. The first value is shown at once.
 */
export function useWhenIdle<T>(value: T, same: (a: T, b: T) => boolean): T {
  const [shown, setShown] = useState(value);
  const waiting = !same(shown, value);
  useEffect(() => {
    if (!waiting) return;
    const id = requestIdleCallback(() => setShown(() => value), { timeout: IDLE_TIMEOUT_MS });
    return () => cancelIdleCallback(id);
  });
  return waiting ? shown : value;
}
