import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServe, type ServeProcess } from '../../src-main/studio/testing/serve-process.ts';

/**
 * `flow-studio serve` as a newcomer starts it: a fresh home folder, so the workspace is the
 * default ~/FlowStudio with the samples copied in on first start, and the data folder the default
 * under ~/.local/share. The session cookie is traded for the printed URL as a browser does, so
 * `call` reaches the StudioApi exactly as the page's buttons do.
 */
export interface StudioSession {
  home: string;
  workspace: string;
  url: string;
  origin: string;
  serve: ServeProcess;
  call<T>(method: string, ...args: unknown[]): Promise<T>;
  stop(): Promise<void>;
}

/** The environment of a newcomer's shell: this machine's, with a home of its own and no studio overrides. */
export function newcomerEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home };
  for (const name of ['FLOW_STUDIO_WORKSPACE', 'XDG_DATA_HOME', 'XDG_CONFIG_HOME', 'FLOW_PLATFORM_API_URL', 'FLOW_PLATFORM_API_TOKEN']) delete env[name];
  return env;
}

export async function startStudioSession(): Promise<StudioSession> {
  const home = mkdtempSync(join(tmpdir(), 'flow-studio-newcomer-'));
  const workspace = join(home, 'FlowStudio');
  const serve = await startServe({ workspace, dataDir: join(home, '.local', 'share', 'flow-studio'), env: newcomerEnv(home) });
  const origin = new URL(serve.url).origin;
  const traded = await fetch(serve.url, { redirect: 'manual' });
  const cookie = String(traded.headers.get('set-cookie')).split(';')[0];
  return {
    home,
    workspace,
    url: serve.url,
    origin,
    serve,
    async call<T>(method: string, ...args: unknown[]): Promise<T> {
      const res = await fetch(`${origin}/api/call/${method}`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify({ args }) });
      const body = (await res.json()) as { ok: boolean; value?: T; error?: string };
      if (!body.ok) throw new Error(`${method}: ${body.error}`);
      return body.value as T;
    },
    async stop() {
      await serve.stop();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
