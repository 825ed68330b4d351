import type { StateCreator } from 'zustand';
import type { FlowTestRunView } from '../../shared/flow-test-types.ts';
import type { StudioState } from './studio-store.ts';

export interface TestsSlice {
  /** The integration the Tests panel shows. */
  testsIntegration: string | undefined;
  /** The last run of each integration's tests: results for the panel, coverage for the flow graph. */
  testRuns: Record<string, FlowTestRunView>;
  setTestsIntegration(id: string | undefined): void;
  testRunFinished(run: FlowTestRunView): void;
}

export const createTestsSlice: StateCreator<StudioState, [], [], TestsSlice> = (set) => ({
  testsIntegration: undefined,
  testRuns: {},
  setTestsIntegration: (testsIntegration) => set({ testsIntegration }),
  testRunFinished: (run) => set((s) => ({ testRuns: { ...s.testRuns, [run.integration]: run } })),
});
