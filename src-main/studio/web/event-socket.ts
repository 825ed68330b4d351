import type { WebSocket } from 'ws';
import { addNotRecorded, noneNotRecorded, notRecordedFields } from '../../../shared/feed-events.ts';
import { studioEvents, type FeedBatch, type StudioEventFrame, type StudioEventName, type StudioEvents, type StudioHelloFrame } from '../../../shared/studio-api.ts';
import type { StudioBackend } from '../studio-backend.ts';

/** Above this many unsent bytes the window is falling behind: feed batches are counted, not sent. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

/**
 * One browser window's event stream: every StudioApi event as a JSON frame. The feed is the only
 * high-rate event; when the socket backs up its batches are dropped and their count is carried
 * into the next batch that goes out, so the UI can show "dropped N".
 */
export function attachEventSocket(ws: WebSocket, backend: StudioBackend): void {
  let dropped = 0;
  /** What runtimes did not record (trace records dropped, runs untraced), carried on to the next batch that goes out. */
  let carried = noneNotRecorded();
  const send = <E extends StudioEventName>(event: E, payload: StudioEvents[E]): void => {
    if (ws.readyState !== ws.OPEN) return;
    const frame: StudioEventFrame<E> = { event, payload };
    ws.send(JSON.stringify(frame));
  };
  const sendFeed = (batch: FeedBatch): void => {
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      dropped += batch.events.length + batch.dropped;
      addNotRecorded(carried, batch);
      return;
    }
    addNotRecorded(carried, batch);
    send('feed', { events: batch.events, dropped: batch.dropped + dropped, ...notRecordedFields(carried) });
    dropped = 0;
    carried = noneNotRecorded();
  };
  // First the launch this socket belongs to (a window from an earlier launch learns the studio
  // restarted) and the run states, read in the same turn as the subscription below: a state that
  // changes afterwards is an event after this frame, so the window never holds a snapshot older
  // than an event it missed.
  const hello: StudioHelloFrame = { hello: { launchId: backend.launchId, runStates: backend.runStates() } };
  ws.send(JSON.stringify(hello));
  const unsubscribe = studioEvents.map((event) =>
    event === 'feed' ? backend.on('feed', sendFeed) : backend.on(event, (payload) => send(event, payload)),
  );
  const close = (): void => {
    for (const u of unsubscribe.splice(0)) u();
  };
  ws.on('close', close);
  ws.on('error', close);
  // The socket carries events one way; anything the page sends is ignored.
  ws.on('message', () => {});
}
