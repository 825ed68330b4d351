import { beforeEach, describe, expect, it } from 'vitest';
import type { RunState } from '../../shared/studio-api.ts';
import { useStudio } from './studio-store.ts';

const state = (integration: string, status: RunState['status'], since: number): RunState => ({ integration, status, routes: [], problems: [], generation: 1, since });

describe('run states in the store', () => {
  beforeEach(() => useStudio.setState({ runs: {} }));

  it('keeps a state an event brought when a snapshot read before that event answers after it', () => {
    const { applyRunState, applyRunStates } = useStudio.getState();
    // The page asked for every state, then the integration started (its event came first).
    applyRunState(state('orders', 'running', 2_000));
    applyRunStates([state('orders', 'stopped', 1_000), state('billing', 'stopped', 1_000)]);
    expect(useStudio.getState().runs.orders.status).toBe('running');
    expect(useStudio.getState().runs.billing.status).toBe('stopped');
  });

  it('takes a newer snapshot, and forgets an integration the snapshot no longer lists', () => {
    const { applyRunState, applyRunStates } = useStudio.getState();
    applyRunState(state('orders', 'running', 1_000));
    applyRunState(state('gone', 'running', 1_000));
    applyRunStates([state('orders', 'stopped', 3_000)]);
    expect(useStudio.getState().runs).toEqual({ orders: state('orders', 'stopped', 3_000) });
  });
});
