import type { FeedEvent } from '../../../shared/feed-events.ts';
import type { Runtime } from '../../runtime/core/runtime.ts';
import type { CaptureStore } from './capture-store.ts';

/**
 * Captures every request a runtime's servers answer, and sends the frames its event streams
 * write to the live feed (as `sse` events), for as long as the runtime lives.
 */
export function observeTraffic(integration: string, runtime: Runtime, captures: CaptureStore, push: (event: FeedEvent) => void): () => void {
  const redactor = runtime.definition.redactor;
  const redact = (text: string): string => redactor.redact(text);
  return runtime.observe({
    exchange: (record) => captures.add(integration, record, redact),
    sseFrame: (frame) => {
      const parsed = parseFrame(redact(frame.frame));
      push({ kind: 'sse', at: frame.at, integration, stream: frame.stream ?? `${frame.connector}:?`, ...parsed });
    },
  });
}

/** The event name and data of one written frame; a heartbeat comment becomes an event `:`. */
function parseFrame(frame: string): { event?: string; data: string } {
  if (frame.startsWith(':')) return { event: ':', data: frame.slice(1).trim() };
  let event: string | undefined;
  const data: string[] = [];
  for (const line of frame.split('\n')) {
    if (line.startsWith('event:')) event = line.slice(6).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
  }
  return event === undefined ? { data: data.join('\n') } : { event, data: data.join('\n') };
}
