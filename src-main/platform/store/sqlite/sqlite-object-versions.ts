import { MetaCounter, type Db } from './sqlite-database.ts';

/**
 * The object version counter (store/object-versions.ts) in the SQLite file. Its floor is
 * recomputed from the stored rows at start; only deletes persist it.
 */
export class ObjectVersions {
  private readonly counter: MetaCounter;

  constructor(db: Db) {
    const floor = db
      .prepare(
        `SELECT MAX(v) AS v FROM (
           SELECT MAX(version) AS v FROM kv_entries
           UNION ALL SELECT MAX(version) FROM agent_threads
           UNION ALL SELECT MAX(version) FROM agent_memories)`,
      )
      .get() as { v: number | null };
    this.counter = new MetaCounter(db, 'object_version', floor.v ?? 0);
  }

  next(): number {
    return this.counter.next();
  }

  /** Call inside a transaction that deletes a versioned object, so its version is never reissued. */
  rememberDeleted(): void {
    this.counter.persist();
  }
}
