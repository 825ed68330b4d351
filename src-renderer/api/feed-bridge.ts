import { addNotRecorded, noneNotRecorded, type FeedEvent } from '../../shared/feed-events.ts';
import type { StudioBridge } from '../../shared/studio-api.ts';
import { useStudio } from '../store/studio-store.ts';

/** Events waiting for the next frame; beyond it (a hidden tab gets no frames) they are counted. */
const MAX_PENDING = 10_000;

/**
 * Moves the live feed into the store at most once per animation frame, however fast batches
 * arrive, so high-rate traces cost one render per frame rather than one per event.
 */
export function connectFeed(studio: StudioBridge): () => void {
  let pending: FeedEvent[] = [];
  let dropped = 0;
  let notRecorded = noneNotRecorded();
  let frame: number | undefined;

  const flush = (): void => {
    frame = undefined;
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
    frame ??= requestAnimationFrame(flush);
  });

  return () => {
    unsubscribe();
    if (frame !== undefined) cancelAnimationFrame(frame);
  };
}
