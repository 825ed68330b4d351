import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * Checkpoints the database's WAL from a worker thread, on a connection of its own. A checkpoint
 * syncs the WAL and the database file (synchronous=NORMAL); done by SQLite's automatic checkpoint
 * on the committing connection, those fsyncs stalled the server's only thread for milliseconds
 * every few megabytes written — with traces flowing, half of the traced bench run's p99. The main
 * connection keeps a far larger automatic checkpoint as a safety net should the worker be gone.
 */
export interface WalCheckpointer {
  /** Whether the worker has started (a WAL grew past the threshold). */
  readonly started: boolean;
  stop(): Promise<void>;
}

/** Pages the main connection lets the WAL reach before it checkpoints itself (the worker normally keeps it far below). */
export const FALLBACK_AUTOCHECKPOINT_PAGES = 16_384;

// A plain CommonJS worker (no TypeScript loader needed in it, in sources or a build): it only
// opens the file and runs PASSIVE checkpoints, which never wait for and never block a writer.
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const dbs = workerData.files.map((file) => {
  const db = new Database(file);
  db.pragma('busy_timeout = 0');
  return db;
});
const checkpoint = () => { for (const db of dbs) { try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {} } };
setInterval(checkpoint, workerData.intervalMs);
`;

/**
 * WAL bytes (of any of the files) before the worker starts: 1 MB, a few milliseconds of fsync at
 * most should the connection checkpoint it itself. A platform that has written no more than that
 * since it opened (an idle `flow-studio run`, whose embedded platform has stored its schema and a
 * few batches) runs no checkpoint thread, which would cost it about 10 MB resident; one under
 * load passes it within the first interval.
 */
export const WORKER_AFTER_WAL_BYTES = 1 << 20;

/**
 * One worker checkpoints every database file given, started once one of their WALs has grown past
 * `startAfterBytes` (looked at every `intervalMs` until then).
 */
export function startWalCheckpointer(files: string[], intervalMs = 250, startAfterBytes = WORKER_AFTER_WAL_BYTES): WalCheckpointer {
  let worker: Worker | undefined;
  const start = (): void => {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { files, driver, intervalMs } });
    worker.unref();
    // A worker that fails costs only the off-thread checkpoints: the fallback checkpoint remains.
    worker.on('error', () => {});
  };
  const walBytes = (file: string): number => {
    try {
      return statSync(`${file}-wal`).size;
    } catch {
      return 0;
    }
  };
  let watch: NodeJS.Timeout | undefined;
  if (startAfterBytes <= 0) start();
  else {
    watch = setInterval(() => {
      if (!files.some((f) => walBytes(f) > startAfterBytes)) return;
      clearInterval(watch);
      watch = undefined;
      start();
    }, intervalMs).unref();
  }
  let stopped: Promise<void> | undefined;
  return {
    get started() {
      return worker !== undefined;
    },
    // No last checkpoint here: closing the main connection checkpoints what is left. Terminating
    // waits for a checkpoint in progress (native code is not interrupted), bounded in any case.
    stop() {
      clearInterval(watch);
      stopped ??= worker
        ? Promise.race([worker.terminate().then(() => undefined), new Promise<void>((resolve) => setTimeout(resolve, 500).unref())])
        : Promise.resolve();
      return stopped;
    },
  };
}
