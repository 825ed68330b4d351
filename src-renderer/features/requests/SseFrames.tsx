import { useLayoutEffect, useRef } from 'react';
import type { SseFrame } from '../../../shared/request-types.ts';

/**
 * Server-sent events as they arrived: time since the request, event name, data (pretty-printed
 * when it is JSON), id. Heartbeats are a subtle tick; the final and error frames are marked.
 */
export function SseFrames({ frames, live }: { frames: readonly SseFrame[]; live: boolean }) {
  const end = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (live) end.current?.scrollIntoView({ block: 'nearest' });
  }, [frames.length, live]);
  const events = frames.filter((f) => !f.heartbeat).length;
  return (
    <div className="sse-frames" role="log" aria-label="Stream frames" aria-live="polite">
      <div className="muted sse-count">
        {events} event{events === 1 ? '' : 's'}
        {live ? ' · streaming…' : ''}
      </div>
      {frames.map((f, i) =>
        f.heartbeat ? (
          <div key={i} className="sse-heartbeat" title={`heartbeat at +${f.atMs} ms`} aria-label="heartbeat">
            · {f.data || 'ping'} <span className="muted">+{f.atMs} ms</span>
          </div>
        ) : (
          <div key={i} className={`sse-frame${f.mark ? ` sse-${f.mark}` : ''}`} data-event={f.event ?? 'message'}>
            <div className="sse-frame-head">
              <span className="sse-time">+{f.atMs} ms</span>
              <strong className="sse-event">{f.event ?? 'message'}</strong>
              {f.id !== undefined ? <span className="muted">id {f.id}</span> : null}
              {f.mark === 'final' ? <span className="tag tag-final">final</span> : null}
              {f.mark === 'error' ? <span className="tag tag-error">error</span> : null}
            </div>
            <pre className="sse-data">{pretty(f.data)}</pre>
          </div>
        ),
      )}
      <div ref={end} />
    </div>
  );
}

function pretty(data: string): string {
  const t = data.trim();
  if (!(t.startsWith('{') || t.startsWith('['))) return data;
  try {
    return JSON.stringify(JSON.parse(t), null, 2);
  } catch {
    return data;
  }
}
