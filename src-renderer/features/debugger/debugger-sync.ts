import type { StudioBridge } from '../../../shared/studio-api.ts';
import { useStudio } from '../../store/studio-store.ts';
import { refreshDebugger } from './debugger-actions.ts';

/**
 * Keeps the debugger's part of the store following the backend: its events on the live feed
 * (paused, resumed, ended, breakpoints) make it read the state again; logpoint lines go to the
 * debug console. Read once at start and on every reconnect, when events may have been lost.
 */
export function syncDebugger(studio: StudioBridge): () => void {
  const stops = [
    studio.on('feed', (batch) => {
      let changed = false;
      const lines = [];
      for (const e of batch.events) {
        if (e.kind !== 'debug') continue;
        if (e.action === 'output' && e.output) lines.push(e.output);
        else changed = true;
      }
      if (lines.length > 0) useStudio.getState().appendDebugOutput(lines);
      if (changed) void refreshDebugger(studio);
    }),
  ];
  void refreshDebugger(studio);
  const stopConnect = studio.onConnect?.(() => void refreshDebugger(studio));
  if (stopConnect) stops.push(stopConnect);
  return () => {
    for (const stop of stops) stop();
  };
}
