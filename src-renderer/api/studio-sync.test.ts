import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RunState, StudioBridge, StudioHello } from '../../shared/studio-api.ts';
import { useStudio } from '../store/studio-store.ts';
import { syncWithStudio } from './studio-sync.ts';

// Modules the sync imports reach for the page's bridge when they load; each test hands syncWithStudio its own.
vi.hoisted(() => Object.assign(globalThis, { window: { studio: {} } }));
vi.stubGlobal('requestAnimationFrame', () => 0);
vi.stubGlobal('cancelAnimationFrame', () => {});

const state = (integration: string, status: RunState['status'], since: number): RunState => ({ integration, status, routes: [], problems: [], generation: 1, since });

/** A web-mode bridge: every call is recorded and answered by `answer` (else never), events and hellos delivered by hand. */
function fakeWebStudio(answer: Record<string, () => Promise<unknown>> = {}) {
  const calls: string[] = [];
  const listeners = new Map<string, (payload: unknown) => void>();
  let connect: ((hello: StudioHello) => void) | undefined;
  const studio = new Proxy({} as StudioBridge, {
    get(_t, name: string) {
      if (name === 'on') return (event: string, l: (p: unknown) => void) => (listeners.set(event, l), () => listeners.delete(event));
      if (name === 'onConnect') return (l: (hello: StudioHello) => void) => ((connect = l), () => (connect = undefined));
      if (name === 'onSessionEnd' || name === 'then') return undefined;
      return () => {
        calls.push(name);
        return answer[name]?.() ?? new Promise(() => {});
      };
    },
  });
  return {
    studio,
    calls,
    hello: (runStates: RunState[]) => connect!({ launchId: 'l1', runStates }),
    event: (s: RunState) => listeners.get('runState')!(s),
  };
}

describe('the page following run states in web mode', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    useStudio.setState({ runs: {}, runsKnown: false, runEvents: 0, runEventAt: {} });
  });
  afterEach(() => vi.useRealTimers());

  it('takes them from the socket’s hello, then its events, and never reads or polls them over a call', () => {
    const page = fakeWebStudio();
    const stop = syncWithStudio(page.studio);
    // The integration started while the socket opened: no event, but the hello read as the socket subscribed has it.
    page.hello([state('echo', 'running', 2_000)]);
    expect(useStudio.getState().runs.echo?.status).toBe('running');
    expect(useStudio.getState().runsKnown).toBe(true);
    page.event(state('echo', 'stopped', 3_000));
    expect(useStudio.getState().runs.echo.status).toBe('stopped');
    vi.advanceTimersByTime(30_000);
    expect(page.calls).not.toContain('runStates');
    stop();
  });

  it('replaces what an earlier socket brought when a new one says hello', () => {
    const page = fakeWebStudio();
    const stop = syncWithStudio(page.studio);
    page.hello([state('echo', 'running', 1_000), state('gone', 'stopped', 1_000)]);
    page.event(state('echo', 'running', 1_500));
    // The socket dropped; meanwhile echo stopped and `gone` was deleted. The new hello is the truth.
    page.hello([state('echo', 'stopped', 2_000)]);
    expect(Object.keys(useStudio.getState().runs)).toEqual(['echo']);
    expect(useStudio.getState().runs.echo.status).toBe('stopped');
    stop();
  });

  it('reads them once over a call where the bridge has no socket (Electron)', async () => {
    const page = fakeWebStudio({ runStates: async () => [state('orders', 'running', 1_000)] });
    const studio = bridgeWithoutConnect(page.studio);
    const stop = syncWithStudio(studio);
    await vi.waitFor(() => expect(useStudio.getState().runs.orders?.status).toBe('running'));
    expect(page.calls.filter((c) => c === 'runStates')).toHaveLength(1);
    stop();
  });
});

function bridgeWithoutConnect(studio: StudioBridge): StudioBridge {
  return new Proxy(studio, { get: (t, name) => (name === 'onConnect' ? undefined : Reflect.get(t, name)) });
}
