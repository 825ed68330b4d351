import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createLogger } from '../runtime/index.ts';
import { DataDirInUseError, diskFullError, lockDataDir, type DataDirLock } from '../platform/index.ts';
import { startStudioBackend, type StudioBackend } from '../studio/studio-backend.ts';
import { appRoot, defaultDataDir, defaultWorkspaceDir, examplesDir } from '../studio/studio-paths.ts';
import { ensureRendererBuilt } from '../studio/web/renderer-build.ts';
import { startWebStudio, type WebStudio } from '../studio/web/web-server.ts';
import { counted } from '../../shared/counted.ts';
import { onStopSignals } from './stop-signals.ts';

export const DEFAULT_PORT = 4870;

export const USAGE = `usage: flow-studio serve [--port P] [--workspace DIR] [--data-dir DIR] [--open]

Opens the studio in a browser: the embedded platform, the studio's backend and its UI on
127.0.0.1, at the URL it prints (with this launch's session token).

  --port P          port of the studio's page (default ${DEFAULT_PORT}; 0 for any free port)
  --workspace DIR   the folder of integrations (default $FLOW_STUDIO_WORKSPACE, else ~/FlowStudio;
                    created with the samples on first start)
  --data-dir DIR    where the platform's state and the studio's history live (default
                    $XDG_DATA_HOME/flow-studio, else ~/.local/share/flow-studio)
  --open            open the printed URL in the default browser
  -h, --help        this text

One studio uses a data folder at a time: a second \`serve\` on a folder in use stops at once, naming
the studio that holds it (its pid and URL); give a second studio its own --data-dir.

A restart on the same data folder lists the runs, captures, log lines and sent requests again,
starts the integrations that were running, and keeps their ports (docs/history.md).`;

/**
 * `flow-studio serve`: the studio in a browser. Starts the embedded platform, the studio backend
 * and the web transport on 127.0.0.1, prints the URL with this launch's session token, and keeps
 * running (returns -1) until SIGINT/SIGTERM, when every runtime is stopped cleanly.
 */
export async function main(argv: string[]): Promise<number> {
  let values: { port?: string; 'data-dir'?: string; workspace?: string; open?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        'data-dir': { type: 'string' },
        workspace: { type: 'string' },
        open: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    console.error(`flow-studio serve: ${err instanceof Error ? err.message : String(err)}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`flow-studio serve: --port ${values.port} is not a port; give 1-65535, or 0 for any free port`);
    return 2;
  }
  const workspaceDir = values.workspace ? resolve(values.workspace) : defaultWorkspaceDir();
  const dataDir = values['data-dir'] ? resolve(values['data-dir']) : defaultDataDir();

  // One studio per data folder: a second one refuses here, before it builds the UI or opens any state.
  let lock: DataDirLock;
  try {
    lock = await lockDataDir(dataDir, 'web');
  } catch (err) {
    if (!(err instanceof DataDirInUseError)) throw err;
    console.error(`flow-studio serve: ${err.message}`);
    return 1;
  }
  let backend: StudioBackend | undefined;
  let web: WebStudio;
  try {
    await ensureRendererBuilt(appRoot, (line) => console.error(line));
    // The backend owns the lock from here and releases it when it closes.
    backend = await startStudioBackend({ workspaceDir, dataDir, samplesDir: examplesDir, shell: 'web', log: createLogger({ level: 'warn' }), dataDirLock: lock });
    web = await startWebStudio({
      backend,
      rendererDir: join(appRoot, 'dist-renderer'),
      port,
      sessionKey: keptSessionKey(dataDir),
      testHooks: process.env.FLOW_STUDIO_TEST_HOOKS === '1',
    });
  } catch (err) {
    await backend?.close().catch(() => {});
    lock.release();
    if ((err as { code?: string }).code === 'EADDRINUSE') {
      console.error(`flow-studio serve: port ${port} is already in use; pass --port <another> (or --port 0 for any free port)`);
      return 1;
    }
    throw diskFullError(dataDir, err);
  }

  const stop = (signal: NodeJS.Signals): void => {
    console.log(`stopping Flow Studio… (a second ${signal} stops at once)`);
    void Promise.allSettled([web.close(), backend!.close()]).then(() => process.exit(0));
  };
  // Before the URL is printed: whoever reads it may stop the studio at once (a script, a test),
  // and a signal with no handler yet would end it without closing its state or freeing its lock.
  // Forced, the runs in flight are cut and the last quarter second of history is not written;
  // what the platform and studio.db committed before is kept (WAL).
  onStopSignals('serve', stop, () => {
    const running = backend!.runStates().filter((s) => s.status !== 'stopped' && s.status !== 'failed').length;
    return `${counted(running, 'integration')} to stop and the studio's history to be written`;
  });

  lock.announce(web.url);
  console.log(`Flow Studio is running at ${web.url}`);
  console.log(`workspace ${workspaceDir} · data ${dataDir} · Ctrl+C stops it`);
  const atRoot = (await backend!.api.workspaceInfo()).definitionsAtRoot;
  if (atRoot.length > 0 && (await backend!.api.listIntegrations()).length === 0) {
    // `flow-studio run <folder>` takes one integration's folder; the studio wants the folder above.
    console.log(`note: ${workspaceDir} holds flow definitions itself (${atRoot.join(', ')}): it is one integration, and the studio lists the integrations of a workspace, one per sub-folder. To see its flows: flow-studio serve --workspace ${dirname(workspaceDir)}`);
  }
  if (values.open) openBrowser(web.url);
  return -1;
}

/**
 * The web session's cookie value, kept in the data folder (0600) so a tab opened before a restart
 * reloads into the new launch; the token in the printed URL is still new on every launch.
 */
function keptSessionKey(dataDir: string): string {
  const file = join(dataDir, 'web-session.key');
  try {
    if (existsSync(file)) {
      const key = readFileSync(file, 'utf8').trim();
      if (key.length >= 32) return key;
    }
    mkdirSync(dataDir, { recursive: true });
    const key = randomBytes(32).toString('base64url');
    writeFileSync(file, key, { mode: 0o600 });
    chmodSync(file, 0o600);
    return key;
  } catch {
    // Without a writable data folder the session lasts as long as the launch.
    return randomBytes(32).toString('base64url');
  }
}

function openBrowser(url: string): void {
  const [cmd, args] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', url]] : ['xdg-open', [url]];
  const child = spawn(cmd, args as string[], { stdio: 'ignore', detached: true });
  child.on('error', () => console.error(`could not open a browser; open ${url} yourself`));
  child.unref();
}
