import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface Server {
  child: ChildProcess;
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts a server pinned to one core with taskset (the load generator gets the other; no core:
 * wherever the OS runs it) and waits for its `listening on <url>` line.
 */
export function startPinned(core: number | undefined, args: string[], cwd: string, env?: Record<string, string>): Promise<Server> {
  const command = core === undefined ? [process.execPath, ...args] : ['taskset', '-c', String(core), process.execPath, ...args];
  const child = spawn(command[0], command.slice(1), { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`no "listening on" line within 30 s:\n${output}`)), 30_000);
    const onData = (d: Buffer): void => {
      output += d.toString();
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (!url) return;
      clearTimeout(timer);
      resolve({
        child,
        url,
        stop: async () => {
          child.kill('SIGTERM');
          const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
          await exited;
          clearTimeout(killer);
        },
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then(() => reject(new Error(`the server exited before listening:\n${output}`)));
  });
}

const TICKS_PER_SECOND = 100; // getconf CLK_TCK on Linux

/** CPU seconds used so far and resident memory, read from /proc. */
export function procStats(pid: number): { cpuSeconds: number; rssBytes: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) start at index 2 (state).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const cpuSeconds = (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  const rssKb = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
  return { cpuSeconds, rssBytes: rssKb * 1024 };
}

/** Pins this process (the load generator) to a core. */
export function pinSelf(core: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const p = spawn('taskset', ['-cp', String(core), String(process.pid)], { stdio: 'ignore' });
    p.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`taskset exited with ${code}`))));
  });
}
