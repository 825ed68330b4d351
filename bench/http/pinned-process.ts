import { spawn, type ChildProcess } from 'node:child_process';

export interface Started {
  child: ChildProcess;
  url: string;
  stop(): Promise<void>;
  /** Further processes serving the same requests (a platform server); their CPU counts too. */
  helpers?: ChildProcess[];
}

/**
 * Starts a server pinned to one core (taskset) and waits for its `listening <url>` line, so the
 * load generator can have the other core to itself.
 */
export function startPinned(core: number, command: string, args: string[], env: NodeJS.ProcessEnv = process.env, readyPattern = /listening (\S+)/): Promise<Started> {
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
        child.stdout!.resume();
        child.stderr!.resume();
        resolve({ child, url: m[1], stop: () => stopChild(child) });
      }
    };
    // Some servers (Benthos) log to stderr: either stream may carry the line.
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => fail(new Error(`${command} exited with ${code} before listening:\n${output}`)));
  });
}

export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 3_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
