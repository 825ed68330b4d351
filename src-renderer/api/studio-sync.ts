import type { StudioBridge } from '../../shared/studio-api.ts';
import { useStudio } from '../store/studio-store.ts';
import { connectFeed } from './feed-bridge.ts';
import { syncRequests } from './request-actions.ts';
import { syncDebugger } from '../features/debugger/debugger-sync.ts';

/** How often web mode re-reads the run states, in case an event was lost. */
const RESYNC_MS = 3000;

/** Loads what the shell shows first and keeps the store following the backend's events. */
export function syncWithStudio(studio: StudioBridge): () => void {
  const s = useStudio.getState();
  const stops = [
    studio.on('runState', (state) => useStudio.getState().applyRunState(state)),
    studio.on('workspace', (change) => useStudio.getState().setIntegrations(change.integrations)),
    connectFeed(studio),
    syncRequests(studio),
    syncDebugger(studio),
  ];
  const report = (err: unknown): void => s.setNotice(err instanceof Error ? err.message : String(err));
  const stopEnd = studio.onSessionEnd?.((why) => useStudio.getState().setSessionEnded(why));
  if (stopEnd) stops.push(stopEnd);
  studio.workspaceInfo().then(s.setWorkspace, report);
  // The lines of earlier starts (and of runs while no window listened) come back from the history.
  studio.queryLogs({ limit: 5_000 }).then((lines) => useStudio.getState().addStoredLogs(lines), () => {});
  // The snapshot remembers how many events the page had when it asked, so one that answers after
  // a newer event (a just-started integration) cannot undo it.
  const readRunStates = (onError: (err: unknown) => void): void => {
    const askedAt = useStudio.getState().runEvents;
    studio.runStates().then((states) => useStudio.getState().applyRunStates(states, askedAt), onError);
  };
  const refresh = (): void => {
    studio.listIntegrations().then(s.setIntegrations, report);
    readRunStates(report);
  };
  refresh();
  // Events that went out before the socket (re)opened are lost: read the state again then.
  const stopConnect = studio.onConnect?.(refresh);
  if (stopConnect) {
    stops.push(stopConnect);
    // And now and then anyway, so a state lost with a dropped socket message does not stay wrong.
    const timer = setInterval(() => readRunStates(() => {}), RESYNC_MS);
    stops.push(() => clearInterval(timer));
  }
  return () => {
    for (const stop of stops) stop();
  };
}
