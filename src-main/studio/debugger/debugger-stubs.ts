import type { DebuggerApi } from '../../../shared/debugger-types.ts';
import { StudioError } from '../studio-error.ts';

/** The debugger of a stub backend: no breakpoints, nothing paused; what needs a paused run says there is none. */
export function debuggerStubs(): DebuggerApi {
  const none = async (): Promise<never> => {
    throw StudioError.notFound('no run is paused in this stub backend');
  };
  return {
    debuggerState: async () => ({ paused: [], breakpoints: [] }),
    addBreakpoint: async (input) => ({ id: 1, integration: input.integration, file: input.file, line: input.line, enabled: true, verified: false, message: 'the stub backend runs nothing' }),
    updateBreakpoint: none,
    removeBreakpoint: async () => {},
    moveBreakpoints: async () => [],
    evaluateInRun: none,
    editPausedMessage: none,
    resumeRun: none,
    abortRun: none,
    replayRun: none,
  };
}
