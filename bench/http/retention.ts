/**
 * What the data directory of `flow-studio run` holds after a long traced load, with the default
 * retention: every run traced (FLOW_TRACE_SATURATED_RATE=all, so the count is of traced runs, not
 * of requests), wrk sending the bench's POST until the runtime has answered the given number,
 * then the directory's size on disk (as `du` counts it) while it still runs and after it stopped,
 * and the trace records its store kept.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Started } from './pinned-process.ts';
import { runWrk } from './wrk.ts';

export interface RetentionResult {
  requests: number;
  errors: number;
  seconds: number;
  /** Runs the runtime left untraced (0 with every run traced). */
  notTraced: number;
  runningBytes: number;
  stoppedBytes: number;
  traceRecords: number;
  logRecords: number;
}

export interface RetentionOptions {
  /** Starts `flow-studio run` with every run traced, its data directory `dataDir`. */
  start: () => Promise<Started>;
  dataDir: string;
  requests: number;
  loadCore: number;
  connections: number;
  script: string;
  /** Called after each chunk of load, with the requests answered so far. */
  progress?: (answered: number) => void;
}

const CHUNK_SECONDS = 20;

export async function measureRetention(o: RetentionOptions): Promise<RetentionResult> {
  const server = await o.start();
  const t0 = Date.now();
  let requests = 0;
  let errors = 0;
  let runningBytes = 0;
  try {
    // Bounded: stops at the count, or after a chunk that answered nothing.
    while (requests < o.requests) {
      const w = await runWrk(`${server.url}/orders`, { core: o.loadCore, connections: o.connections, seconds: CHUNK_SECONDS, script: o.script });
      if (w.requests === 0) throw new Error(`the runtime answered nothing in ${CHUNK_SECONDS}s after ${requests} requests:\n${server.output().slice(-2000)}`);
      requests += w.requests;
      errors += w.errors;
      o.progress?.(requests);
    }
    runningBytes = diskBytes(o.dataDir);
  } finally {
    await server.stop();
  }
  const seconds = (Date.now() - t0) / 1000;
  const notTraced = notTracedIn(server.output());
  const { traces, logs } = keptRecords(join(o.dataDir, 'telemetry.db'));
  return { requests, errors, seconds, notTraced, runningBytes, stoppedBytes: diskBytes(o.dataDir), traceRecords: traces, logRecords: logs };
}

/** Runs a stopped `flow-studio run` (or the studio's bench server) said it left untraced, in its last line saying so. */
export function notTracedIn(output: string): number {
  return Number([...output.matchAll(/"notTraced":(\d+)/g)].at(-1)?.[1] ?? 0);
}

/** Bytes the directory's files take on disk, as `du` counts them (allocated blocks). */
export function diskBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += diskBytes(path);
    else if (entry.isFile()) total += statSync(path).blocks * 512;
  }
  return total;
}

function keptRecords(file: string): { traces: number; logs: number } {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const count = (table: string): number => (db.prepare(`SELECT COALESCE(SUM(count), 0) AS n FROM ${table}`).get() as { n: number }).n;
    return { traces: count('trace_batches'), logs: count('log_batches') };
  } finally {
    db.close();
  }
}
