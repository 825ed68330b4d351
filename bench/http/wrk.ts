import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface WrkResult {
  rps: number;
  /** Requests completed in the run. */
  requests: number;
  p50Ms: number;
  p99Ms: number;
  /** Non-2xx answers plus socket errors; a run with any is not a fair measurement. */
  errors: number;
}

export const ORDER = '{"id":"o-1042","customer":"ana","price":2.5,"qty":4}';

/** A wrk script POSTing the order JSON. */
export function postScript(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bench-http-'));
  const file = join(dir, 'post.lua');
  writeFileSync(file, `wrk.method = "POST"\nwrk.body = '${ORDER}'\nwrk.headers["Content-Type"] = "application/json"\n`);
  return file;
}

/** Runs wrk pinned to `core` with one thread and `connections` connections. */
export function runWrk(url: string, opts: { core: number; connections: number; seconds: number; script: string }): Promise<WrkResult> {
  const args = ['-c', String(opts.core), 'wrk', '-t1', `-c${opts.connections}`, `-d${opts.seconds}s`, '--latency', '-s', opts.script, url];
  return new Promise((resolve, reject) => {
    execFile('taskset', args, { timeout: (opts.seconds + 30) * 1000 }, (err, stdout) => {
      if (err) return reject(new Error(`wrk failed: ${err.message}\n${stdout}`));
      resolve(parseWrk(stdout));
    });
  });
}

export function parseWrk(text: string): WrkResult {
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(text)?.[1]);
  const requests = Number(/(\d+) requests in/.exec(text)?.[1]);
  const latency = (pct: string): number => {
    const m = new RegExp(`^\\s+${pct}%\\s+([\\d.]+)(us|ms|s)\\s*$`, 'm').exec(text);
    if (!m) return NaN;
    const factor = m[2] === 'us' ? 0.001 : m[2] === 's' ? 1000 : 1;
    return Number(m[1]) * factor;
  };
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(text)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text);
  const socketErrors = socket ? socket.slice(1).reduce((a, b) => a + Number(b), 0) : 0;
  return { rps, requests, p50Ms: latency('50'), p99Ms: latency('99'), errors: non2xx + socketErrors };
}
