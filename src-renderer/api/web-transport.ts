import {
  isStudioEvent,
  studioApiFromCall,
  studioWeb,
  type SessionEnd,
  type StudioBridge,
  type StudioCallResult,
  type StudioEventFrame,
  type StudioEventName,
  type StudioHello,
  type StudioHelloFrame,
  type StudioListener,
} from '../../shared/studio-api.ts';
import { StudioCallError } from '../../shared/studio-errors.ts';

const MAX_RECONNECTS = 30;
/** Longest a call waits for the event socket to open before it goes anyway (a socket that cannot open must not stall calls). */
const OPEN_WAIT_MS = 2000;

/** What a call answers once the session ended: nothing, ever, so no view asks again. */
const parked = (): Promise<never> => new Promise<never>(() => {});

/**
 * The StudioApi over web mode: one POST per call (the session cookie rides along), one WebSocket
 * for every event, opened when the first listener subscribes and closed after the last leaves.
 *
 * A window outlives the studio that served it: when a new launch answers the socket (its hello
 * names another launch) or a call is refused for its session, the bridge says so once
 * (`onSessionEnd`) and goes quiet: no more calls, polls or reconnects.
 */
export function createWebStudio(): StudioBridge {
  let launchId: string | undefined;
  let ended: SessionEnd | undefined;
  const endListeners = new Set<(why: SessionEnd) => void>();
  const end = (why: SessionEnd): void => {
    if (ended) return;
    ended = why;
    if (retryTimer) clearTimeout(retryTimer);
    const ws = socket;
    socket = undefined;
    ws?.close();
    for (const l of endListeners) l(why);
  };
  // Calls made while the event socket is opening wait for it (briefly): state read by a call then
  // never predates an event the socket would have carried (a run started in between was missed,
  // and its integration's routes never showed).
  let socketOpening: Promise<void> | undefined;
  const api = studioApiFromCall(async (method, args) => {
    if (ended) return parked();
    if (socketOpening) await socketOpening;
    const res = await fetch(`${studioWeb.callPrefix}${method}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      credentials: 'same-origin',
      body: JSON.stringify({ args }),
    });
    if (res.status === 401) {
      end('session');
      return parked();
    }
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
  const connectListeners = new Set<(hello: StudioHello) => void>();
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
    };
    ws.onerror = done;
    ws.onmessage = (m) => {
      const frame = JSON.parse(String(m.data)) as StudioEventFrame | StudioHelloFrame;
      if ('hello' in frame) {
        // The first frame names the launch; another launch than the first this window met is a restart.
        if (launchId !== undefined && frame.hello.launchId !== launchId) return end('restarted');
        launchId = frame.hello.launchId;
        for (const l of connectListeners) l(frame.hello);
        return;
      }
      for (const l of listeners.get(frame.event) ?? []) l(frame.payload);
    };
    ws.onclose = () => {
      done();
      if (socket !== ws || ended) return;
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
    onSessionEnd(listener) {
      endListeners.add(listener);
      if (ended) listener(ended);
      return () => endListeners.delete(listener);
    },
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
      if (!socket && !ended) open();
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
