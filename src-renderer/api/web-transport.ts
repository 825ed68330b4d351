import {
  isStudioEvent,
  studioApiFromCall,
  studioWeb,
  type StudioBridge,
  type StudioCallResult,
  type StudioEventFrame,
  type StudioEventName,
  type StudioListener,
} from '../../shared/studio-api.ts';
import { StudioCallError } from '../../shared/studio-errors.ts';

const MAX_RECONNECTS = 30;
/** Longest a call waits for the event socket to open before it goes anyway (a socket that cannot open must not stall calls). */
const OPEN_WAIT_MS = 2000;

/**
 * The StudioApi over web mode: one POST per call (the session cookie rides along), one WebSocket
 * for every event, opened when the first listener subscribes and closed after the last leaves.
 */
export function createWebStudio(): StudioBridge {
  // Calls made while the event socket is opening wait for it (briefly): state read by a call then
  // never predates an event the socket would have carried (a run started in between was missed,
  // and its integration's routes never showed).
  let socketOpening: Promise<void> | undefined;
  const api = studioApiFromCall(async (method, args) => {
    if (socketOpening) await socketOpening;
    const res = await fetch(`${studioWeb.callPrefix}${method}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      credentials: 'same-origin',
      body: JSON.stringify({ args }),
    });
    let result: StudioCallResult;
    try {
      result = (await res.json()) as StudioCallResult;
    } catch {
      throw new Error(`the studio server answered ${res.status} to ${method}; reload the page from the URL flow-studio serve printed`);
    }
    if (!result.ok) throw new StudioCallError(result.kind, result.error);
    return result.value;
  });

  const listeners = new Map<StudioEventName, Set<(payload: unknown) => void>>();
  const connectListeners = new Set<() => void>();
  let socket: WebSocket | undefined;
  let reconnects = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;

  const total = (): number => [...listeners.values()].reduce((n, s) => n + s.size, 0);

  const open = (): void => {
    const url = new URL(studioWeb.events, location.href);
    url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(url);
    socket = ws;
    let opened!: () => void;
    const opening = new Promise<void>((resolve) => (opened = resolve));
    const done = (): void => {
      opened();
      if (socketOpening === waited) socketOpening = undefined;
    };
    const waited = Promise.race([opening, new Promise<void>((resolve) => setTimeout(resolve, OPEN_WAIT_MS))]).then(done);
    socketOpening = waited;
    ws.onopen = () => {
      reconnects = 0;
      done();
      for (const l of connectListeners) l();
    };
    ws.onerror = done;
    ws.onmessage = (m) => {
      const frame = JSON.parse(String(m.data)) as StudioEventFrame;
      for (const l of listeners.get(frame.event) ?? []) l(frame.payload);
    };
    ws.onclose = () => {
      done();
      if (socket !== ws) return;
      socket = undefined;
      // The server may be restarting; try again for a while with a growing pause.
      if (total() > 0 && reconnects < MAX_RECONNECTS) {
        const wait = Math.min(5_000, 200 * 2 ** reconnects++);
        retryTimer = setTimeout(() => total() > 0 && !socket && open(), wait);
      }
    };
  };

  return {
    ...api,
    onConnect(listener) {
      connectListeners.add(listener);
      return () => connectListeners.delete(listener);
    },
    on<E extends StudioEventName>(event: E, listener: StudioListener<E>): () => void {
      if (!isStudioEvent(event)) throw new Error(`"${String(event)}" is not a studio event`);
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      const l = listener as (payload: unknown) => void;
      set.add(l);
      if (!socket) open();
      return () => {
        set.delete(l);
        if (total() === 0 && socket) {
          const ws = socket;
          socket = undefined;
          if (retryTimer) clearTimeout(retryTimer);
          ws.close();
        }
      };
    },
  };
}
