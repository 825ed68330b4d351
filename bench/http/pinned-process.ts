import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

export interface Started {
  child: ChildProcess;
  url: string;
  stop(): Promise<void>;
  /** Further processes serving the same requests (a platform server); their CPU counts too. */
  helpers?: ChildProcess[];
  /** What the server wrote to stdout and stderr, the last 256 KiB of it. */
  output(): string;
}

const KEPT_OUTPUT = 256 * 1024;

/**
 * Starts a server pinned to one core (taskset) and waits for its `listening <url>` line, so the
 * load generator can have the other core to itself. `cores` may name several ("0,1").
 */
export function startPinned(core: number | string, command: string, args: string[], env: NodeJS.ProcessEnv = process.env, readyPattern = /listening (\S+)/): Promise<Started> {
  return new Promise((resolve, reject) => {
    const child = spawn('taskset', ['-c', String(core), command, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const timer = setTimeout(() => fail(new Error(`no "listening" line within 60s from ${command} ${args.join(' ')}:\n${output}`)), 60_000);
    const fail = (err: Error): void => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(err);
    };
    const onData = (d: Buffer): void => {
      output += d.toString();
      const m = readyPattern.exec(output);
      if (m) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        child.stderr!.off('data', onData);
        const keep = (d: Buffer): void => {
          output += d.toString();
          if (output.length > 2 * KEPT_OUTPUT) output = output.slice(-KEPT_OUTPUT);
        };
        child.stdout!.on('data', keep);
        child.stderr!.on('data', keep);
        resolve({ child, url: m[1], stop: () => stopChild(child), output: () => output.slice(-KEPT_OUTPUT) });
      }
    };
    // Some servers (Benthos) log to stderr: either stream may carry the line.
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => fail(new Error(`${command} exited with ${code} before listening:\n${output}`)));
  });
}

/**
 * A server whose request thread is pinned to `mainCore` while its other threads (a Node process's
 * workers, GC and libuv threads) may also run on `spareCore`: a machine with a core to spare, as a
 * deployed runtime usually has. Started on both cores so every thread it makes while starting may
 * use either, then only the main thread (its id is the process id) is moved to `mainCore`.
 */
export async function startWithSpareCore(mainCore: number, spareCore: number, command: string, args: string[], env?: NodeJS.ProcessEnv, readyPattern?: RegExp): Promise<Started> {
  const started = await startPinned(`${mainCore},${spareCore}`, command, args, env, readyPattern);
  execFileSync('taskset', ['-p', '-c', String(mainCore), String(started.child.pid)], { stdio: 'ignore' });
  return started;
}

/** SIGTERM, then SIGKILL after 5 s. */
export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** A port free right now on 127.0.0.1 (each contender is told to listen on it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}
