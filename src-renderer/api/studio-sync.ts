import type { StudioBridge } from '../../shared/studio-api.ts';
import { useStudio } from '../store/studio-store.ts';
import { connectFeed } from './feed-bridge.ts';
import { syncRequests } from './request-actions.ts';
import { syncDebugger } from '../features/debugger/debugger-sync.ts';

/** Loads what the shell shows first and keeps the store following the backend's events. */
export function syncWithStudio(studio: StudioBridge): () => void {
  const s = useStudio.getState();
  const stops = [
    studio.on('runState', (state) => {
      useStudio.getState().applyRunState(state);
      // A stop the person did not ask for (its folder left the workspace) says why: the card that
      // would show the reason may be gone with the folder.
      if (state.status === 'stopped' && state.reason) useStudio.getState().setNotice(`${state.integration} stopped: ${state.reason}`);
    }),
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
  const listIntegrations = (): void => void studio.listIntegrations().then(s.setIntegrations, report);
  listIntegrations();
  const stopConnect = studio.onConnect?.((hello) => {
    // The socket's first frame carries the run states read in the same turn as its subscription:
    // every change after it is an event behind it on the same socket, so the page can neither miss
    // a just-started integration nor have an older answer undo a newer state. It replaces what
    // the page knew (events of an earlier socket all precede it).
    useStudio.getState().applyRunStates(hello.runStates, useStudio.getState().runEvents);
    // Events that went out while the socket was down are lost: read the integrations again.
    listIntegrations();
  });
  if (stopConnect) stops.push(stopConnect);
  else {
    // Electron forwards every event to the window on one channel from before this read: an event
    // that overtakes the answer is newer than it, and applyRunStates keeps what came later.
    const askedAt = useStudio.getState().runEvents;
    studio.runStates().then((states) => useStudio.getState().applyRunStates(states, askedAt), report);
  }
  return () => {
    for (const stop of stops) stop();
  };
}
