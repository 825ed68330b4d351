import { useEffect, useRef, useState } from 'react';

export interface LiveQuery<T> {
  data: T | undefined;
  error: string | undefined;
  /** Asks again now (after a write). */
  refresh(): void;
}

/**
 * Loads data for a view and, while `live`, loads it again every `intervalMs` after the previous
 * answer came (never two at once, none while the page is hidden). A new `key` loads at once;
 * the previous data stays shown until the new answer, so nothing flickers.
 */
export function useLiveQuery<T>(load: () => Promise<T>, key: string, options: { intervalMs: number; live: boolean }): LiveQuery<T> {
  const [state, setState] = useState<{ data?: T; error?: string }>({});
  const [nonce, setNonce] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  const loaded = useRef(false);
  const { intervalMs, live } = options;

  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = async (): Promise<void> => {
      if (!document.hidden || !loaded.current) {
        try {
          const data = await loadRef.current();
          loaded.current = true;
          if (!cancelled) setState({ data });
        } catch (err) {
          if (!cancelled) setState((s) => ({ data: s.data, error: err instanceof Error ? err.message : String(err) }));
        }
      }
      if (!cancelled && live) timer = setTimeout(() => void run(), intervalMs);
    };
    void run();
    return () => {
      cancelled = true;
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [key, nonce, live, intervalMs]);

  return { data: state.data, error: state.error, refresh: () => setNonce((n) => n + 1) };
}

/** The current time, updated every `everyMs` while mounted (countdowns, "3 s ago"). */
export function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
