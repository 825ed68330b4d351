import type { FeedOutcome, TraceFeedEvent } from '../../../shared/feed-events.ts';
import { useStudio } from '../../store/studio-store.ts';

let lastSeen: TraceFeedEvent | undefined;
const open = new Map<string, Record<string, FeedOutcome>>();

/**
 * Keeps the graph's run counts following the live feed, whichever panel is showing: each time
 * the trace list grows, the events after the last one counted are folded in. The list only ever
 * appends (dropping its oldest), so everything after that event is new; when it is gone (the
 * list was cleared or overflowed), every event in the list is.
 */
export function followRunStats(): () => void {
  return useStudio.subscribe((state, prev) => {
    if (state.traces === prev.traces) return;
    const traces = state.traces;
    const from = lastSeen ? traces.lastIndexOf(lastSeen) + 1 : 0;
    const fresh = from === 0 ? traces : traces.slice(from);
    if (traces.length > 0) lastSeen = traces[traces.length - 1];
    if (fresh.length > 0) state.foldRunTraces(fresh, open);
  });
}
