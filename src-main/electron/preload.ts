/**
 * The renderer's only door to the main process: `window.studio`, built from the StudioApi method
 * list. Each method is one invoke on one channel; `on(event, listener)` returns its unsubscribe.
 * Raw ipcRenderer is never exposed. Runs sandboxed, so this file is bundled to CommonJS.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import {
  isStudioEvent,
  studioApiFromCall,
  studioIpc,
  type StudioBridge,
  type StudioCallResult,
  type StudioEventName,
  type StudioListener,
} from '../../shared/studio-api.ts';
import { StudioCallError } from '../../shared/studio-errors.ts';

const api = studioApiFromCall(async (method, args) => {
  const result = (await ipcRenderer.invoke(studioIpc.call, method, args)) as StudioCallResult;
  // Only the message crosses the contextBridge; StudioCallError puts the kind in it.
  if (!result.ok) throw new StudioCallError(result.kind, result.error);
  return result.value;
});

const bridge: StudioBridge = {
  ...api,
  on<E extends StudioEventName>(event: E, listener: StudioListener<E>): () => void {
    if (!isStudioEvent(event)) throw new Error(`"${String(event)}" is not a studio event`);
    const handler = (_e: IpcRendererEvent, name: unknown, payload: unknown): void => {
      if (name === event) listener(payload as Parameters<StudioListener<E>>[0]);
    };
    ipcRenderer.on(studioIpc.event, handler);
    return () => void ipcRenderer.removeListener(studioIpc.event, handler);
  },
};

contextBridge.exposeInMainWorld('studio', bridge);
