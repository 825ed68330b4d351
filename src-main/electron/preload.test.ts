import { describe, expect, it, vi } from 'vitest';
import { studioIpc, studioMethods } from '../../shared/studio-api.ts';
import { studioErrorKindOf } from '../../shared/studio-errors.ts';

// The real 'electron' module is a binary launcher; the preload only needs these two objects.
const exposed = vi.hoisted(() => ({ worlds: new Map<string, unknown>(), invocations: [] as unknown[][], handlers: [] as Array<(...a: unknown[]) => void> }));
vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, value: unknown) => exposed.worlds.set(key, value) },
  ipcRenderer: {
    invoke: async (...args: unknown[]) => {
      exposed.invocations.push(args);
      return args[1] === 'readFile' ? { ok: false, error: 'no file "x" in integration "y"', kind: 'not-found' } : { ok: true, value: [] };
    },
    on: (_channel: string, handler: (...a: unknown[]) => void) => exposed.handlers.push(handler),
    removeListener: (_channel: string, handler: (...a: unknown[]) => void) => exposed.handlers.splice(exposed.handlers.indexOf(handler), 1),
  },
}));

await import('./preload.ts');
const studio = exposed.worlds.get('studio') as Record<string, (...a: unknown[]) => unknown>;

describe('the preload', () => {
  it('exposes exactly the StudioApi methods plus on(), under window.studio and nothing else', () => {
    expect([...exposed.worlds.keys()]).toEqual(['studio']);
    expect(Object.keys(studio).sort()).toEqual([...studioMethods, 'on'].sort());
    expect(Object.values(studio).every((v) => typeof v === 'function')).toBe(true);
  });

  it('turns each method into one invoke on the studio channel', async () => {
    await expect(studio.listIntegrations()).resolves.toEqual([]);
    expect(exposed.invocations.at(-1)).toEqual([studioIpc.call, 'listIntegrations', []]);
    const failure = await (studio.readFile('y', 'x') as Promise<unknown>).then(() => undefined, (err: unknown) => err);
    // What survives the contextBridge is the message alone; the kind rides in it.
    expect(studioErrorKindOf(new Error((failure as Error).message))).toBe('not-found');
    expect((failure as Error).message).toBe('Not found: no file "x" in integration "y"');
  });

  it('delivers only the subscribed event and unsubscribes cleanly', () => {
    const got: unknown[] = [];
    const off = studio.on('runState', (p: unknown) => got.push(p)) as () => void;
    for (const h of exposed.handlers) h({}, 'feed', { events: [], dropped: 0 });
    for (const h of exposed.handlers) h({}, 'runState', { integration: 'a' });
    expect(got).toEqual([{ integration: 'a' }]);
    off();
    expect(exposed.handlers).toHaveLength(0);
    expect(() => studio.on('nonsense', () => {})).toThrow(/not a studio event/);
  });
});
