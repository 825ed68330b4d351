import { endTurnNow } from '../../../../shared/end-of-turn.ts';
import type { Db } from './sqlite-database.ts';

interface Pending {
  write: () => unknown;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/** Writes per transaction at most; a longer queue commits in several. */
const MAX_GROUP = 512;

/**
 * Group commit: writes that arrive in the same turn of the event loop run in one transaction,
 * so concurrent writers share one WAL commit instead of paying one each. A write's promise
 * settles only after its transaction committed, so an acknowledged write is exactly as durable
 * as one committed alone; writes run in arrival order, each seeing the ones before it.
 *
 * The commit runs in a setImmediate callback, where the answers its writes resolve would be
 * ended at the end of the next turn (shared/end-of-turn.ts schedules with setImmediate too). So
 * once every waiter has been resumed and has answered, the group ends those answers itself, in
 * its own turn.
 */
export class GroupCommit {
  private pending: Pending[] = [];
  private scheduled = false;

  constructor(private readonly db: Db) {}

  /** Runs `write` (synchronous statements, no transaction of its own) in the next group commit. */
  run<T>(write: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ write, resolve: resolve as (value: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(this.commit);
      }
    });
  }

  private readonly commit = (): void => {
    this.scheduled = false;
    while (this.pending.length > 0) {
      const group = this.pending.length <= MAX_GROUP ? this.pending : this.pending.slice(0, MAX_GROUP);
      this.pending = group === this.pending ? [] : this.pending.slice(MAX_GROUP);
      const results: unknown[] = new Array(group.length);
      try {
        this.db.transaction(() => {
          for (let i = 0; i < group.length; i++) results[i] = group[i].write();
        })();
      } catch {
        // The group rolled back as a whole: each write runs again alone, so only one that fails
        // by itself fails (and nothing was acknowledged before its commit).
        for (const p of group) {
          try {
            p.resolve(this.db.transaction(p.write)());
          } catch (err) {
            p.reject(err);
          }
        }
        continue;
      }
      for (let i = 0; i < group.length; i++) group[i].resolve(results[i]);
    }
    // After the waiters' continuations: a tick queued from a microtask runs once the microtask
    // queue is drained, so every chain of awaits that resumed here has answered by then.
    queueMicrotask(afterAnswers);
  };
}

const afterAnswers = (): void => process.nextTick(endTurnNow);
