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
  // A snapshot answered after an event it predates must not undo that event: per integration the
  // newer state wins (an integration the snapshot no longer lists is gone).
  applyRunStates: (states) =>
    set((s) => ({
      runs: Object.fromEntries(
        states.map((r) => {
          const known = s.runs[r.integration];
          return [r.integration, known && known.since > r.since ? known : r];
        }),
      ),
    })),
});
