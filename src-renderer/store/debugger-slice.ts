import type { StateCreator } from 'zustand';
import type { DebugOutput, DebuggerState, PausedRunView, StudioBreakpoint } from '../../shared/debugger-types.ts';
import type { StudioState } from './studio-store.ts';

/** Lines of the debug console kept; older ones go first. */
const OUTPUT_KEPT = 500;
const NO_BREAKPOINTS: readonly StudioBreakpoint[] = [];

export interface DebuggerSlice {
  /** Runs paused in a debugger, oldest pause first. */
  pausedRuns: PausedRunView[];
  breakpoints: StudioBreakpoint[];
  /** Logpoint lines and failed conditions, newest last. */
  debugOutput: DebugOutput[];
  /** The paused run the Debugger panel shows. */
  debugThread: number | undefined;
  applyDebuggerState(state: DebuggerState): void;
  appendDebugOutput(lines: DebugOutput[]): void;
  showDebugThread(thread: number | undefined): void;
}

export const createDebuggerSlice: StateCreator<StudioState, [], [], DebuggerSlice> = (set) => ({
  pausedRuns: [],
  breakpoints: [],
  debugOutput: [],
  debugThread: undefined,
  applyDebuggerState: (state) =>
    set((s) => ({
      pausedRuns: state.paused,
      breakpoints: state.breakpoints,
      // The shown run stays while paused; else the newest pause is shown.
      debugThread: state.paused.some((p) => p.thread === s.debugThread) ? s.debugThread : state.paused.at(-1)?.thread,
    })),
  appendDebugOutput: (lines) => set((s) => ({ debugOutput: [...s.debugOutput, ...lines].slice(-OUTPUT_KEPT) })),
  showDebugThread: (debugThread) => set({ debugThread }),
});

/**
 * The breakpoints of one definition file, for the editor's gutter and the flow graph's nodes.
 * Stable while nothing about them changed, so a component selecting it re-renders only then.
 */
export function breakpointsOfFile(s: Pick<StudioState, 'breakpoints'>, integration: string, file: string): readonly StudioBreakpoint[] {
  const list = s.breakpoints.filter((b) => b.integration === integration && b.file === file);
  return list.length === 0 ? NO_BREAKPOINTS : list;
}

/** The paused runs whose top frame is in that file: the editor marks the line each waits at. */
export function pausedInFile(s: Pick<StudioState, 'pausedRuns'>, integration: string, file: string): PausedRunView[] {
  return s.pausedRuns.filter((p) => p.integration === integration && p.frames[0]?.file === file);
}
