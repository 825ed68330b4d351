import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { endThisTurn, type EndableResponse } from '../../../../shared/end-of-turn.ts';
import { GroupCommit } from './group-commit.ts';
import { openDatabase, type Db } from './sqlite-database.ts';

const dirs: string[] = [];
const dbs: Db[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function fresh(): { db: Db; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'group-commit-'));
  dirs.push(dir);
  const db = openDatabase(dir);
  dbs.push(db);
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL UNIQUE)');
  return { db, file: join(dir, 'platform.db') };
}

/** Bytes written to the WAL since the last call (which empties it). */
function walBytesSince(db: Db, file: string): number {
  const size = statSync(`${file}-wal`).size;
  db.pragma('wal_checkpoint(TRUNCATE)');
  return size;
}

describe('group commit', () => {
  it('commits the writes of one turn together: far fewer WAL bytes than a commit each', async () => {
    const { db, file } = fresh();
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    walBytesSince(db, file);
    for (let i = 0; i < 100; i++) db.transaction(() => insert.run(`alone-${i}`))();
    const alone = walBytesSince(db, file);
    const group = new GroupCommit(db);
    const ids = await Promise.all(Array.from({ length: 100 }, (_, i) => group.run(() => Number(insert.run(`grouped-${i}`).lastInsertRowid))));
    const grouped = walBytesSince(db, file);
    expect(ids).toEqual(Array.from({ length: 100 }, (_, i) => ids[0] + i));
    expect(grouped * 10).toBeLessThan(alone);
  });

  it('answers a write only once it is committed, and in arrival order', async () => {
    const { db, file } = fresh();
    const group = new GroupCommit(db);
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    const done = group.run(() => insert.run('a'));
    // Not yet committed: another connection sees nothing.
    const reader = new Database(file, { readonly: true });
    try {
      expect(reader.prepare('SELECT COUNT(*) AS n FROM t').get()).toEqual({ n: 0 });
      await done;
      expect(reader.prepare('SELECT COUNT(*) AS n FROM t').get()).toEqual({ n: 1 });
    } finally {
      reader.close();
    }
  });

  it('fails only the write that fails; the others of its group still commit', async () => {
    const { db } = fresh();
    const group = new GroupCommit(db);
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    const results = await Promise.allSettled([group.run(() => insert.run('x')), group.run(() => insert.run('x')), group.run(() => insert.run('y'))]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(db.prepare('SELECT v FROM t ORDER BY id').pluck().all()).toEqual(['x', 'y']);
  });

  it('ends the answers of its writes in its own turn, not one turn of the event loop later', async () => {
    const { db } = fresh();
    const group = new GroupCommit(db);
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    const ended: string[] = [];
    const answer = (name: string): EndableResponse => ({ destroyed: false, writableEnded: false, end: () => ended.push(name), destroy: () => {} });
    // Two writes answered as a route answers them: after an await, through the end-of-turn write.
    const handler = async (v: string): Promise<void> => {
      await group.run(() => insert.run(v));
      await Promise.resolve(); // a route may await more before it answers
      endThisTurn(answer(v), 'ok');
    };
    void handler('a');
    void handler('b');
    // Queued after the group's commit, so it runs in the same turn right after it: by then the answers are ended.
    const sameTurn = new Promise<string[]>((resolve) => setImmediate(() => resolve([...ended])));
    expect(await sameTurn).toEqual(['a', 'b']);
  });
});
