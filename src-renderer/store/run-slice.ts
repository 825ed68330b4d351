import type { StateCreator } from 'zustand';
import type { RunState } from '../../shared/studio-api.ts';
import type { StudioState } from './studio-store.ts';

export interface RunSlice {
  runs: Record<string, RunState>;
  /** Applies a state unless a newer one for the same integration is already known. */
  applyRunState(state: RunState): void;
  applyRunStates(states: RunState[]): void;
}

export const createRunSlice: StateCreator<StudioState, [], [], RunSlice> = (set) => ({
  runs: {},
  applyRunState: (state) =>
    set((s) => {
      const known = s.runs[state.integration];
      if (known && known.since > state.since) return s;
      return { runs: { ...s.runs, [state.integration]: state } };
    }),
  applyRunStates: (states) => set({ runs: Object.fromEntries(states.map((r) => [r.integration, r])) }),
});
