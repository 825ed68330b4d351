import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createLogger } from '../runtime/index.ts';
import { startStudioBackend, type StudioBackend } from '../studio/studio-backend.ts';
import { appRoot, defaultDataDir, defaultWorkspaceDir, examplesDir } from '../studio/studio-paths.ts';
import { ensureRendererBuilt } from '../studio/web/renderer-build.ts';
import { startWebStudio, type WebStudio } from '../studio/web/web-server.ts';

export const DEFAULT_PORT = 4870;

/**
 * `flow-studio serve`: the studio in a browser. Starts the embedded platform, the studio backend
 * and the web transport on 127.0.0.1, prints the URL with this launch's session token, and keeps
 * running (returns -1) until SIGINT/SIGTERM, when every runtime is stopped cleanly.
 */
export async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      workspace: { type: 'string' },
      open: { type: 'boolean', default: false },
    },
  });
  const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`flow-studio serve: --port ${values.port} is not a port; give 1-65535, or 0 for any free port`);
    return 2;
  }
  const workspaceDir = values.workspace ? resolve(values.workspace) : defaultWorkspaceDir();
  const dataDir = values['data-dir'] ? resolve(values['data-dir']) : defaultDataDir();

  await ensureRendererBuilt(appRoot, (line) => console.error(line));
  let backend: StudioBackend | undefined;
  let web: WebStudio;
  try {
    backend = await startStudioBackend({ workspaceDir, dataDir, samplesDir: examplesDir, shell: 'web', log: createLogger({ level: 'warn' }) });
    web = await startWebStudio({
      backend,
      rendererDir: join(appRoot, 'dist-renderer'),
      port,
      testHooks: process.env.FLOW_STUDIO_TEST_HOOKS === '1',
    });
  } catch (err) {
    await backend?.close().catch(() => {});
    if ((err as { code?: string }).code === 'EADDRINUSE') {
      console.error(`flow-studio serve: port ${port} is already in use; pass --port <another> (or --port 0 for any free port)`);
      return 1;
    }
    throw err;
  }

  console.log(`Flow Studio is running at ${web.url}`);
  console.log(`workspace ${workspaceDir} · data ${dataDir} · Ctrl+C stops it`);
  if (values.open) openBrowser(web.url);

  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    console.log('stopping Flow Studio…');
    void Promise.allSettled([web.close(), backend!.close()]).then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return -1;
}

function openBrowser(url: string): void {
  const [cmd, args] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', url]] : ['xdg-open', [url]];
  const child = spawn(cmd, args as string[], { stdio: 'ignore', detached: true });
  child.on('error', () => console.error(`could not open a browser; open ${url} yourself`));
  child.unref();
}
