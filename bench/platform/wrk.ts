import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface WrkResult {
  requests: number;
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  errors: number;
}

/** Runs wrk (keep-alive, pinned to `core` when given) and reads its summary. `script` is Lua, for requests other than GET. */
export function wrk(
  url: string,
  options: { seconds: number; connections: number; core?: number; threads?: number; headers?: Record<string, string>; script?: string; dir: string },
): Promise<WrkResult> {
  // Pinned to `core` with taskset; with no core, wherever the OS runs it.
  const pin = options.core === undefined ? [] : ['taskset', '-c', String(options.core)];
  const args = [...pin, '/usr/bin/wrk', `-t${options.threads ?? 2}`, `-c${options.connections}`, `-d${options.seconds}s`, '--latency'];
  for (const [k, v] of Object.entries(options.headers ?? {})) args.push('-H', `${k}: ${v}`);
  if (options.script) {
    const path = join(options.dir, `wrk-${Date.now()}-${Math.random().toString(36).slice(2)}.lua`);
    writeFileSync(path, options.script);
    args.push('-s', path);
  }
  args.push(url);
  return new Promise((resolve, reject) => {
    execFile(args[0], args.slice(1), (err, stdout) => {
      if (err) return reject(err);
      const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1]);
      const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout)?.[1] ?? 0);
      const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout);
      const errors = non2xx + (socketErrors ? socketErrors.slice(1).reduce((n, s) => n + Number(s), 0) : 0);
      const requests = Number(/(\d+) requests in/.exec(stdout)?.[1]);
      resolve({ requests, requestsPerSecond: rps, latencyP50Ms: latency(stdout, '50%'), latencyP99Ms: latency(stdout, '99%'), errors });
    });
  });
}

function latency(stdout: string, percentile: string): number {
  const m = new RegExp(`${percentile}\\s+([\\d.]+)(us|ms|s)`).exec(stdout);
  if (!m) return NaN;
  const value = Number(m[1]);
  return m[2] === 'us' ? value / 1000 : m[2] === 's' ? value * 1000 : value;
}
