/**
 * The studio's run of the bench flow, as a user with the studio open has it: the studio backend
 * (embedded platform, run manager, run store) runs the integration, and a browser-less subscriber
 * takes the live feed, serializing every batch to JSON as the web transport's event socket does.
 *
 * usage: studio-server.ts <workspace-dir> <data-dir>; prints `listening <origin>` once the route serves.
 */
import { startStudioBackend } from '../../src-main/studio/studio-backend.ts';

const [workspaceDir, dataDir] = process.argv.slice(2);
const backend = await startStudioBackend({ workspaceDir, dataDir, shell: 'web' });
let feedBytes = 0;
let feedEvents = 0;
let notTraced = 0;
backend.on('feed', (batch) => {
  feedBytes += JSON.stringify({ event: 'feed', payload: batch }).length;
  feedEvents += batch.events.length;
  notTraced += batch.runsNotTraced ?? 0;
});
await backend.api.startIntegration('bench');
const state = (await backend.api.runStates()).find((s) => s.integration === 'bench');
const route = state?.routes.find((r) => r.url.endsWith('/orders'));
if (state?.status !== 'running' || !route) {
  console.error(`the bench integration did not start: ${JSON.stringify(state)}`);
  process.exit(1);
}
console.log(`listening ${new URL(route.url).origin}`);
process.on('SIGTERM', () => {
  // The feed reads the runtime's count every 500 ms at most: wait for its last reading first.
  setTimeout(() => {
    console.error(`live feed: ${feedEvents} events, ${(feedBytes / 1e6).toFixed(1)} MB serialized; studio stopped {"notTraced":${notTraced}}`);
    void backend.close().then(() => process.exit(0));
  }, 600);
});
