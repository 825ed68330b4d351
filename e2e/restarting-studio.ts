import { startServe, type ServeProcess } from '../src-main/studio/testing/serve-process.ts';

export { freePort } from '../src-main/studio/port-conflict.ts';

/**
 * `flow-studio serve` on a fixed port, so a restart answers at the address a tab left open knows
 * (the e2e of a studio restarting under an open tab).
 */
export const serveAt = (port: number, workspace: string, dataDir: string): Promise<ServeProcess> => startServe({ port, workspace, dataDir, waitMs: 90_000 });
