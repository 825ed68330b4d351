import Database, { type Statement } from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import type { HistoryThreadReply, HistoryThreadRequest } from './history-thread.ts';

/**
 * The studio's history thread (history-thread.ts): each HistoryWriter batch in one transaction
 * on a connection of its own, in the order handed over; a sync or close request is answered by
 * moving the shared counter the flushing thread waits on.
 */
const { file, reached } = workerData as { file: string; reached: SharedArrayBuffer };
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
        if (m.clear) db.exec(`DELETE FROM ${m.table}`);
        if (m.forget > 0) prepared(`DELETE FROM ${m.table} WHERE ${m.key} <= ?`).run(m.forget);
        for (const row of m.rows) upsert.run(...row);
      })();
    } catch (err) {
      const reply: HistoryThreadReply = { table: m.table, error: (err as Error).message };
      parentPort!.postMessage(reply);
    }
    return;
  }
  if (m.op === 'close') db.close();
  Atomics.store(counter, 0, m.seq);
  Atomics.notify(counter, 0);
  if (m.op === 'close') parentPort!.close();
});
