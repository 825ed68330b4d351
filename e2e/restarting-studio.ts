import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServe, type ServeProcess } from '../src-main/studio/testing/serve-process.ts';
import { freePort } from '../src-main/studio/port-conflict.ts';

export { freePort };

/**
 * `flow-studio serve` on a fixed port, so a restart answers at the address a tab left open knows
 * (the e2e of a studio restarting under an open tab).
 */
export const serveAt = (port: number, workspace: string, dataDir: string): Promise<ServeProcess> => startServe({ port, workspace, dataDir, waitMs: 90_000 });

export interface RestartingStudio {
  workspace: string;
  dataDir: string;
  /** The running studio's URL, with its token. */
  readonly url: string;
  /** Stops the studio, does `whileDown` (a checkout, say), and starts it again on the same port and folders. */
  restart(whileDown?: () => void): Promise<void>;
}

/** A studio of its own in a temporary folder for `body`, on a fixed port; stopped and removed afterwards. */
export async function withRestartingStudio(prefix: string, body: (studio: RestartingStudio) => Promise<void>): Promise<void> {
  const temp = mkdtempSync(join(tmpdir(), prefix));
  const [workspace, dataDir] = [join(temp, 'ws'), join(temp, 'data')];
  const port = await freePort();
  let studio = await serveAt(port, workspace, dataDir);
  try {
    await body({
      workspace,
      dataDir,
      get url() {
        return studio.url;
      },
      async restart(whileDown) {
        await studio.stop();
        whileDown?.();
        studio = await serveAt(port, workspace, dataDir);
      },
    });
  } finally {
    await studio.stop();
    rmSync(temp, { recursive: true, force: true });
  }
}
