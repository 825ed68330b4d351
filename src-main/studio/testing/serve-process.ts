import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));

export interface ServeProcess {
  /** The printed URL, with the session token. */
  url: string;
  pid: number;
  output(): string;
  /** SIGTERM, as Ctrl+C: resolves once it exited. */
  stop(): Promise<void>;
  /** SIGKILL, as a crash or `kill -9`: resolves once it is gone. */
  crash(): Promise<void>;
}

/**
 * `flow-studio serve` as a person starts it, on `port` (0: any free one) with the given folders;
 * resolves once it printed its URL. The first start may build the studio's UI, a minute or more
 * on a loaded machine.
 */
export async function startServe(options: { port?: number; workspace: string; dataDir: string; env?: NodeJS.ProcessEnv; waitMs?: number }): Promise<ServeProcess> {
  const args = [join(root, 'bin', 'flow-studio.js'), 'serve', '--port', String(options.port ?? 0), '--workspace', options.workspace, '--data-dir', options.dataDir];
  const child = spawn(process.execPath, args, { cwd: root, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const waitMs = options.waitMs ?? 240_000;
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve printed no URL within ${waitMs / 1000} s:\n${output}`)), waitMs);
    child.stdout.on('data', () => {
      const m = /Flow Studio is running at (\S+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}:\n${output}`));
    });
  });
  const end = async (signal: NodeJS.Signals): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill(signal);
    await exited;
  };
  return {
    url,
    pid: child.pid!,
    output: () => output,
    stop: () => end('SIGTERM'),
    crash: () => end('SIGKILL'),
  };
}
