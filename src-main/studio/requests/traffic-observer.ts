import type { FeedEvent } from '../../../shared/feed-events.ts';
import { type Runtime } from '../../runtime/index.ts';
import type { CaptureStore } from './capture-store.ts';
import { parseSseFrame } from './sse-reader.ts';

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
      const parsed = parseSseFrame(redact(frame.frame));
      push({ kind: 'sse', at: frame.at, integration, stream: frame.stream ?? `${frame.connector}:?`, ...parsed });
    },
  });
}
