import Database, { type Statement } from 'better-sqlite3';
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { HistoryThreadReply, HistoryThreadRequest } from './history-thread.ts';

/**
 * The studio's history thread (history-thread.ts): each HistoryWriter batch in one transaction
 * on a connection of its own, in the order handed over; a sync or close request is answered by
 * moving the shared counter the flushing thread waits on.
 */
const { file, reached } = workerData as { file: string; reached: SharedArrayBuffer };
yieldToRequests();
const counter = new Int32Array(reached);
const db = new Database(file);
// As the studio's own connection (studio-db.ts): history is diagnostic, WAL is the file's already.
db.pragma('synchronous = OFF');
db.pragma('busy_timeout = 5000');
const statements = new Map<string, Statement>();
const prepared = (sql: string): Statement => {
  let statement = statements.get(sql);
  if (!statement) statements.set(sql, (statement = db.prepare(sql)));
  return statement;
};

parentPort!.on('message', (m: HistoryThreadRequest) => {
  if (m.op === 'write') {
    try {
      const upsert = prepared(m.upsert);
      db.transaction(() => {
        for (const statement of m.before) prepared(statement.sql).run(...statement.params);
        for (const row of m.rows) upsert.run(...row);
      })();
    } catch (err) {
      const reply: HistoryThreadReply = { writer: m.writer, error: (err as Error).message };
      parentPort!.postMessage(reply);
    }
    return;
  }
  if (m.op === 'close') db.close();
  Atomics.store(counter, 0, m.seq);
  Atomics.notify(counter, 0);
  if (m.op === 'close') parentPort!.close();
});

/**
 * The thread runs below the request thread's priority (nice 5: about a quarter of a core both
 * want), so where they share a core a batch's transaction waits for the requests in hand instead
 * of taking the core for a slice of milliseconds while connections wait; it still gets more than
 * history needs under a flood. Linux only: there a thread's id names the thread alone to
 * setpriority, elsewhere it would name the whole process.
 */
function yieldToRequests(): void {
  if (process.platform !== 'linux') return;
  try {
    setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), 5);
  } catch {
    // Not allowed or no /proc: history is written at the thread's usual priority.
  }
}
