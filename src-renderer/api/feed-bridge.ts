import { addNotRecorded, noneNotRecorded, type FeedEvent } from '../../shared/feed-events.ts';
import type { StudioBridge } from '../../shared/studio-api.ts';
import { useStudio } from '../store/studio-store.ts';

/** Events waiting for the next frame; beyond it (a hidden tab gets no frames) they are counted. */
const MAX_PENDING = 10_000;

/**
 * The shortest time between two entries into the store. A lone event still shows on the next
 * frame; a burst is entered ten times a second, as fast as anyone reads a scrolling list, so the
 * frames in between stay free for typing and scrolling instead of each re-rendering every list.
 */
export const FEED_MIN_INTERVAL_MS = 100;

/**
 * Moves the live feed into the store at most once per animation frame and at most once per
 * FEED_MIN_INTERVAL_MS, however fast batches arrive, so high-rate traces cost a few renders a
 * second rather than one per event or per frame.
 */
export function connectFeed(studio: StudioBridge, now: () => number = () => performance.now()): () => void {
  let pending: FeedEvent[] = [];
  let dropped = 0;
  let notRecorded = noneNotRecorded();
  let frame: number | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastFlush = -Infinity;

  const flush = (): void => {
    frame = undefined;
    lastFlush = now();
    const events = pending;
    const lost = dropped;
    const notRecordedNow = notRecorded;
    pending = [];
    dropped = 0;
    notRecorded = noneNotRecorded();
    useStudio.getState().appendFeed(events, lost, notRecordedNow);
  };

  const unsubscribe = studio.on('feed', (batch) => {
    dropped += batch.dropped;
    addNotRecorded(notRecorded, batch);
    const room = MAX_PENDING - pending.length;
    if (batch.events.length <= room) pending.push(...batch.events);
    else {
      pending.push(...batch.events.slice(0, Math.max(0, room)));
      dropped += batch.events.length - Math.max(0, room);
    }
    schedule();
  });

  function schedule(): void {
    if (frame !== undefined || timer !== undefined) return;
    const wait = lastFlush + FEED_MIN_INTERVAL_MS - now();
    if (wait <= 0) frame = requestAnimationFrame(flush);
    else
      timer = setTimeout(() => {
        timer = undefined;
        frame = requestAnimationFrame(flush);
      }, wait);
  }

  return () => {
    unsubscribe();
    if (frame !== undefined) cancelAnimationFrame(frame);
    if (timer !== undefined) clearTimeout(timer);
  };
}
