import type { StateCreator } from 'zustand';
import type { RunState } from '../../shared/studio-api.ts';
import type { StudioState } from './studio-store.ts';

export interface RunSlice {
  runs: Record<string, RunState>;
  /** False until the first snapshot answers: until then `runs` lacks what is running, not what is stopped. */
  runsKnown: boolean;
  /** How many run-state events the page has applied; a snapshot remembers it when it is asked for. */
  runEvents: number;
  /** Per integration, the value of `runEvents` when its last event was applied. */
  runEventAt: Record<string, number>;
  /** Applies a state unless a newer one for the same integration is already known. */
  applyRunState(state: RunState): void;
  /**
   * Applies a snapshot of every state, asked for when `runEvents` was `askedAt`. The backend never
   * forgets an integration it has run, so one the snapshot lacks but an event brought after the
   * snapshot was asked for is newer than the snapshot, not gone: it stays.
   */
  applyRunStates(states: RunState[], askedAt?: number): void;
}

export const createRunSlice: StateCreator<StudioState, [], [], RunSlice> = (set) => ({
  runs: {},
  runsKnown: false,
  runEvents: 0,
  runEventAt: {},
  applyRunState: (state) =>
    set((s) => {
      const known = s.runs[state.integration];
      if (known && known.since > state.since) return s;
      const runEvents = s.runEvents + 1;
      return { runs: { ...s.runs, [state.integration]: state }, runEvents, runEventAt: { ...s.runEventAt, [state.integration]: runEvents } };
    }),
  // A snapshot answered after an event it predates must not undo that event: per integration the
  // newer state wins, and a tie goes to the event that came after the snapshot was asked for.
  applyRunStates: (states, askedAt = Number.POSITIVE_INFINITY) =>
    set((s) => {
      const cameLater = (id: string): boolean => (s.runEventAt[id] ?? 0) > askedAt;
      const runs: Record<string, RunState> = {};
      for (const r of states) {
        const known = s.runs[r.integration];
        runs[r.integration] = known && (known.since > r.since || (known.since === r.since && cameLater(r.integration))) ? known : r;
      }
      for (const [id, known] of Object.entries(s.runs)) if (!(id in runs) && cameLater(id)) runs[id] = known;
      return { runs, runsKnown: true };
    }),
});
