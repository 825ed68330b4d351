import type { StudioBridge } from '../../shared/studio-api.ts';
import { useStudio } from '../store/studio-store.ts';
import { connectFeed } from './feed-bridge.ts';
import { syncRequests } from './request-actions.ts';

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
  ];
  const report = (err: unknown): void => s.setNotice(err instanceof Error ? err.message : String(err));
  studio.workspaceInfo().then(s.setWorkspace, report);
  const refresh = (): void => {
    studio.listIntegrations().then(s.setIntegrations, report);
    studio.runStates().then(s.applyRunStates, report);
  };
  refresh();
  // Events that went out before the socket (re)opened are lost: read the state again then.
  const stopConnect = studio.onConnect?.(refresh);
  if (stopConnect) {
    stops.push(stopConnect);
    // And now and then anyway: full runs still saw a page miss a just-started integration's
    // runState over a connected socket (cause not found yet), and the list must not stay wrong.
    const timer = setInterval(() => studio.runStates().then(s.applyRunStates, () => {}), RESYNC_MS);
    stops.push(() => clearInterval(timer));
  }
  return () => {
    for (const stop of stops) stop();
  };
}
