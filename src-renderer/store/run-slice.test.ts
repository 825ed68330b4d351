import { beforeEach, describe, expect, it } from 'vitest';
import type { RunState } from '../../shared/studio-api.ts';
import { useStudio } from './studio-store.ts';

const state = (integration: string, status: RunState['status'], since: number): RunState => ({ integration, status, routes: [], problems: [], generation: 1, since });

describe('run states in the store', () => {
  beforeEach(() => useStudio.setState({ runs: {}, runsKnown: false, runEvents: 0, runEventAt: {} }));

  it('keeps a state an event brought when a snapshot read before that event answers after it', () => {
    const { applyRunState, applyRunStates } = useStudio.getState();
    // The page asked for every state, then the integration started (its event came first).
    applyRunState(state('orders', 'running', 2_000));
    applyRunStates([state('orders', 'stopped', 1_000), state('billing', 'stopped', 1_000)]);
    expect(useStudio.getState().runs.orders.status).toBe('running');
    expect(useStudio.getState().runs.billing.status).toBe('stopped');
  });

  it('keeps a just-started integration that a snapshot asked for before its first event does not list', () => {
    // The page loads and asks for every state; before the answer, the integration starts for the
    // first time and its event arrives; then the answer, read before the start, lists nothing.
    const askedAt = useStudio.getState().runEvents;
    useStudio.getState().applyRunState(state('echo', 'running', 5_000));
    useStudio.getState().applyRunStates([state('billing', 'stopped', 4_000)], askedAt);
    expect(useStudio.getState().runs.echo?.status).toBe('running');
    // A later snapshot that lists it decides as usual.
    useStudio.getState().applyRunStates([state('echo', 'stopped', 6_000)], useStudio.getState().runEvents);
    expect(useStudio.getState().runs.echo.status).toBe('stopped');
  });

  it('lets an event that came after the snapshot was asked for win a tie of the same millisecond', () => {
    const askedAt = useStudio.getState().runEvents;
    useStudio.getState().applyRunState(state('orders', 'running', 7_000));
    useStudio.getState().applyRunStates([state('orders', 'starting', 7_000)], askedAt);
    expect(useStudio.getState().runs.orders.status).toBe('running');
  });

  it('takes a newer snapshot, and forgets an integration the snapshot no longer lists', () => {
    const { applyRunState, applyRunStates } = useStudio.getState();
    applyRunState(state('orders', 'running', 1_000));
    applyRunState(state('gone', 'running', 1_000));
    applyRunStates([state('orders', 'stopped', 3_000)]);
    expect(useStudio.getState().runs).toEqual({ orders: state('orders', 'stopped', 3_000) });
  });

  it('says the states are known only once a snapshot has answered, not after an event', () => {
    // An event names one integration; only a snapshot says that the others are stopped.
    useStudio.getState().applyRunState(state('orders', 'running', 1_000));
    expect(useStudio.getState().runsKnown).toBe(false);
    useStudio.getState().applyRunStates([state('orders', 'running', 1_000)]);
    expect(useStudio.getState().runsKnown).toBe(true);
  });
});
