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

/** One worker checkpoints every database file given. */
export function startWalCheckpointer(files: string[], intervalMs = 250): WalCheckpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { files, driver, intervalMs } });
  worker.unref();
  // A worker that fails costs only the off-thread checkpoints: the fallback checkpoint remains.
  worker.on('error', () => {});
  let stopped: Promise<void> | undefined;
  return {
    // No last checkpoint here: closing the main connection checkpoints what is left. Terminating
    // waits for a checkpoint in progress (native code is not interrupted), bounded in any case.
    stop() {
      stopped ??= Promise.race([worker.terminate().then(() => undefined), new Promise<void>((resolve) => setTimeout(resolve, 500).unref())]);
      return stopped;
    },
  };
}
