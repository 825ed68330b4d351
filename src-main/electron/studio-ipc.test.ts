import { describe, expect, it } from 'vitest';
import { studioIpc, type StudioCallResult } from '../../shared/studio-api.ts';
import { stubBackend } from '../studio/testing/stub-backend.ts';
import { forwardStudioEvents, registerStudioIpc, type InvokeEventLike } from './studio-ipc.ts';

type Handler = (event: InvokeEventLike, ...args: unknown[]) => Promise<StudioCallResult>;

function fakeIpcMain() {
  const handlers = new Map<string, Handler>();
  return { handlers, handle: (c: string, h: Handler) => void handlers.set(c, h), removeHandler: (c: string) => void handlers.delete(c) };
}

const isApp = (url: string) => url.startsWith('app://studio/');
const topFrame = { senderFrame: { url: 'app://studio/index.html', parent: null } };

describe('the IPC handlers in main', () => {
  it('answer StudioApi calls from the studio window', async () => {
    const ipc = fakeIpcMain();
    registerStudioIpc(ipc, stubBackend().api, isApp);
    const call = ipc.handlers.get(studioIpc.call)!;
    expect(await call(topFrame, 'startIntegration', ['orders-api'])).toMatchObject({ ok: true, value: { integration: 'orders-api', status: 'running' } });
  });

  it('refuse calls from any other frame: a foreign page, an iframe, no frame', async () => {
    const ipc = fakeIpcMain();
    registerStudioIpc(ipc, stubBackend().api, isApp);
    const call = ipc.handlers.get(studioIpc.call)!;
    for (const senderFrame of [{ url: 'https://evil.example/', parent: null }, { url: 'app://studio/index.html', parent: {} }, null]) {
      expect(await call({ senderFrame }, 'listIntegrations', [])).toEqual({ ok: false, error: 'studio calls are accepted only from the studio window', kind: 'user' });
    }
  });

  it('refuse names that are not StudioApi methods', async () => {
    const ipc = fakeIpcMain();
    registerStudioIpc(ipc, stubBackend().api, isApp);
    const result = await ipc.handlers.get(studioIpc.call)!(topFrame, 'toString', []);
    expect(result).toEqual({ ok: false, error: '"toString" is not a studio method', kind: 'user' });
  });

  it('forward every studio event to a window while it lives', () => {
    const backend = stubBackend();
    const sent: unknown[][] = [];
    let destroyed = false;
    const stop = forwardStudioEvents(backend, { send: (...a) => sent.push(a), isDestroyed: () => destroyed });
    backend.emit('runState', { integration: 'a', status: 'stopped', routes: [], problems: [], generation: 0, since: 0 });
    destroyed = true;
    backend.emit('runState', { integration: 'b', status: 'stopped', routes: [], problems: [], generation: 0, since: 0 });
    stop();
    expect(sent).toEqual([[studioIpc.event, 'runState', expect.objectContaining({ integration: 'a' })]]);
  });
});
