import type { StateCreator } from 'zustand';
import type { RunOrigin, RunOutcome } from '../../shared/trace-types.ts';
import type { StudioState } from './studio-store.ts';

/** The stored runs, the raw live feed, or charts of throughput, latency and errors. */
export type TracesView = 'runs' | 'live' | 'charts';

export interface RunFilters {
  flow: string;
  outcome: RunOutcome | '';
  /** One definition version, `integration/generation`; '' for all. */
  version: string;
  status: string;
  text: string;
  /** Only flow test runs, only re-runs, only the others; '' for all. */
  origin: RunOrigin | '';
}

export interface TracesSlice {
  runFilters: RunFilters;
  /** The run opened in the waterfall. */
  selectedRun: string | undefined;
  /** Runs picked for comparison (at most two, oldest pick first). */
  comparePicks: string[];
  comparing: boolean;
  tracesView: TracesView;
  /** The Logs panel shows only this run's lines while set. */
  logRunFilter: string | undefined;
  /** Bumped when the stored runs change wholesale (cleared), so the list reloads. */
  runsEpoch: number;
  setRunFilters(patch: Partial<RunFilters>): void;
  selectRun(runId: string | undefined): void;
  toggleComparePick(runId: string): void;
  setComparing(on: boolean): void;
  setTracesView(view: TracesView): void;
  /** Opens a run in the Traces panel (from a request, a capture, a log line). */
  showRun(runId: string): void;
  /** Opens the Logs panel on one run's lines. */
  showRunLogs(runId: string | undefined): void;
  runsCleared(): void;
}

/** The filters of a fresh Traces panel: every stored run. */
export const NO_RUN_FILTERS: RunFilters = { flow: '', outcome: '', status: '', text: '', origin: '', version: '' };

export const createTracesSlice: StateCreator<StudioState, [], [], TracesSlice> = (set) => ({
  runFilters: NO_RUN_FILTERS,
  selectedRun: undefined,
  comparePicks: [],
  comparing: false,
  tracesView: 'runs',
  logRunFilter: undefined,
  runsEpoch: 0,
  setRunFilters: (patch) => set((s) => ({ runFilters: { ...s.runFilters, ...patch } })),
  selectRun: (selectedRun) => set({ selectedRun, comparing: false }),
  toggleComparePick: (runId) =>
    set((s) => {
      const picks = s.comparePicks.includes(runId) ? s.comparePicks.filter((r) => r !== runId) : [...s.comparePicks, runId].slice(-2);
      return { comparePicks: picks, comparing: s.comparing && picks.length === 2 };
    }),
  setComparing: (comparing) => set({ comparing }),
  setTracesView: (tracesView) => set({ tracesView }),
  showRun: (runId) => set({ panel: 'traces', tracesView: 'runs', selectedRun: runId, comparing: false }),
  showRunLogs: (logRunFilter) => set({ panel: 'logs', logRunFilter }),
  runsCleared: () => set((s) => ({ runsEpoch: s.runsEpoch + 1, selectedRun: undefined, comparePicks: [], comparing: false })),
});
