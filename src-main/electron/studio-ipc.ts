import { studioEvents, studioIpc, type StudioApi, type StudioCallResult } from '../../shared/studio-api.ts';
import type { StudioBackend } from '../studio/studio-backend.ts';
import { dispatchStudioCall } from '../studio/studio-dispatch.ts';

/** The part of Electron's IpcMainInvokeEvent this file reads. */
export interface InvokeEventLike {
  senderFrame: { url: string; parent: unknown } | null;
}

/** The part of Electron's ipcMain this file uses (kept structural so it is testable without Electron). */
export interface IpcMainLike {
  handle(channel: string, handler: (event: InvokeEventLike, ...args: unknown[]) => Promise<StudioCallResult>): void;
  removeHandler(channel: string): void;
}

/** The part of a WebContents that events are sent through. */
export interface EventTargetLike {
  send(channel: string, ...args: unknown[]): void;
  isDestroyed(): boolean;
}

/**
 * Answers StudioApi calls from windows, but only from the top frame of a page of our own app: a
 * frame from anywhere else (an iframe, a page navigated away, a devtools extension) is refused.
 */
export function registerStudioIpc(ipcMain: IpcMainLike, api: StudioApi, isAppUrl: (url: string) => boolean): () => void {
  ipcMain.handle(studioIpc.call, async (event, method, args) => {
    const frame = event.senderFrame;
    if (!frame || frame.parent !== null || !isAppUrl(frame.url)) {
      return { ok: false, error: 'studio calls are accepted only from the studio window', kind: 'user' };
    }
    return dispatchStudioCall(api, method, args);
  });
  return () => ipcMain.removeHandler(studioIpc.call);
}

/** Sends every studio event to one window while it lives; the window is a feed listener. */
export function forwardStudioEvents(backend: StudioBackend, target: EventTargetLike): () => void {
  const unsubscribe = studioEvents.map((event) =>
    backend.on(event, (payload) => {
      if (!target.isDestroyed()) target.send(studioIpc.event, event, payload);
    }),
  );
  return () => {
    for (const u of unsubscribe.splice(0)) u();
  };
}
