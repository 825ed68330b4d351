import type pg from 'pg';
import { isSecretNamespace, isVolatileNamespace, kvSealContext, type KvEntry, type KvStore } from '../kv-store.ts';
import { deleteConflict, writeConflict, type DeleteOutcome, type WriteOutcome } from '../object-versions.ts';
import type { SecretCipher } from '../secret-cipher.ts';
import { Coalescer } from './coalescer.ts';
import { prepared } from './postgres-connection.ts';

type Table = 'kv_entries' | 'kv_volatile';

interface Write {
  ns: string;
  key: string;
  value: Buffer;
  expected: number;
}

/**
 * KV entries on PostgreSQL. Compare-and-set is one statement on the version column: a create is
 * `INSERT … ON CONFLICT DO NOTHING`, a replace is `UPDATE … WHERE version = expected`, and
 * PostgreSQL re-checks that condition after waiting on a concurrent writer's row lock, so of
 * two replicas writing the same version exactly one succeeds. Versions come from one sequence.
 * `*_volatile` namespaces live in an UNLOGGED table: shared by replicas, lost on a crash.
 *
 * Reads and writes that arrive together go in one statement each (Coalescer): every read of a
 * batch is one `unnest` join on the primary key, every write of a batch one statement that
 * creates and replaces them all, committed together (group commit). Each request keeps its own
 * outcome; a key written twice in one batch is written by two statements, in arrival order.
 */
export class PostgresKv implements KvStore {
  private readonly reads: Record<Table, Coalescer<{ ns: string; key: string }, KvEntry | undefined>>;
  private readonly writes: Record<Table, Coalescer<Write, WriteOutcome>>;

  constructor(
    private readonly pool: pg.Pool,
    private readonly cipher: SecretCipher,
  ) {
    this.reads = { kv_entries: this.readBatches('kv_entries'), kv_volatile: this.readBatches('kv_volatile') };
    this.writes = { kv_entries: this.writeBatches('kv_entries'), kv_volatile: this.writeBatches('kv_volatile') };
  }

  async get(ns: string, key: string): Promise<KvEntry | undefined> {
    const row = await this.reads[table(ns)].submit({ ns, key });
    if (row && isSecretNamespace(ns)) return { value: this.cipher.open(row.value, kvSealContext(ns, key)), version: row.version };
    return row;
  }

  put(ns: string, key: string, value: Buffer, expected: number): Promise<WriteOutcome> {
    const stored = isSecretNamespace(ns) ? this.cipher.seal(value, kvSealContext(ns, key)) : value;
    return this.writes[table(ns)].submit({ ns, key, value: stored, expected });
  }

  async delete(ns: string, key: string, expected: number): Promise<DeleteOutcome> {
    const t = table(ns);
    const { rowCount } =
      expected === 0
        ? await this.pool.query(prepared(`DELETE FROM ${t} WHERE namespace = $1 AND key = $2`, [ns, key]))
        : await this.pool.query(prepared(`DELETE FROM ${t} WHERE namespace = $1 AND key = $2 AND version = $3`, [ns, key, expected]));
    if (rowCount) return { ok: true, deleted: true };
    if (expected === 0) return { ok: true, deleted: false };
    const current = (await this.versionsOf(t, [ns], [key])).get(entryKey(ns, key));
    if (current === undefined) return { ok: true, deleted: false };
    return { ok: false, conflict: deleteConflict(expected, current)! };
  }

  private readBatches(t: Table): Coalescer<{ ns: string; key: string }, KvEntry | undefined> {
    // Reads of one namespace (the usual batch): `key = ANY($2)`, one index scan over the keys;
    // of several: an `unnest` join on the primary key.
    const oneNamespace = `SELECT key, value, version FROM ${t} WHERE namespace = $1 AND key = ANY($2::text[])`;
    const mixed = `SELECT e.namespace, e.key, e.value, e.version FROM unnest($1::text[], $2::text[]) AS k(ns, key)
      JOIN ${t} e ON e.namespace = k.ns AND e.key = k.key`;
    return new Coalescer(async (asks) => {
      const ns = asks[0].ns;
      const keys = asks.map((a) => a.key);
      const found = new Map<string, KvEntry>();
      if (asks.every((a) => a.ns === ns)) {
        const { rows } = await this.pool.query<{ key: string; value: Buffer; version: number }>(prepared(oneNamespace, [ns, keys]));
        for (const r of rows) found.set(entryKey(ns, r.key), { value: r.value, version: r.version });
      } else {
        const { rows } = await this.pool.query<{ namespace: string; key: string; value: Buffer; version: number }>(
          prepared(mixed, [asks.map((a) => a.ns), keys]),
        );
        for (const r of rows) found.set(entryKey(r.namespace, r.key), { value: r.value, version: r.version });
      }
      // A key read twice in the batch gets the same row: each caller its own copy of the entry.
      return asks.map((a) => {
        const entry = found.get(entryKey(a.ns, a.key));
        return entry && { value: entry.value, version: entry.version };
      });
    });
  }

  private writeBatches(t: Table): Coalescer<Write, WriteOutcome> {
    const text = `WITH w AS (SELECT * FROM unnest($1::text[], $2::text[], $3::bytea[], $4::bigint[]) WITH ORDINALITY AS w(ns, key, value, expected, i)),
      created AS (
        INSERT INTO ${t} (namespace, key, value, version, updated_at)
        SELECT ns, key, value, nextval('object_version'), flow_now_ms() FROM w WHERE expected = 0 ORDER BY i
        ON CONFLICT (namespace, key) DO NOTHING RETURNING namespace, key, version),
      replaced AS (
        UPDATE ${t} e SET value = w.value, version = nextval('object_version'), updated_at = flow_now_ms()
        FROM w WHERE w.expected > 0 AND e.namespace = w.ns AND e.key = w.key AND e.version = w.expected
        RETURNING e.namespace, e.key, e.version)
      SELECT w.i, COALESCE(c.version, r.version) AS version FROM w
        LEFT JOIN created c ON c.namespace = w.ns AND c.key = w.key
        LEFT JOIN replaced r ON r.namespace = w.ns AND r.key = w.key`;
    const run = async (writes: Write[]): Promise<WriteOutcome[]> => {
      const { rows } = await this.pool.query<{ i: number; version: number | null }>(
        prepared(text, [writes.map((w) => w.ns), writes.map((w) => w.key), writes.map((w) => w.value), writes.map((w) => w.expected)]),
      );
      const outcomes = new Array<WriteOutcome>(writes.length);
      const refused: number[] = [];
      for (const r of rows) {
        if (r.version === null) refused.push(r.i - 1);
        else outcomes[r.i - 1] = { ok: true, version: r.version, created: writes[r.i - 1].expected === 0 };
      }
      if (refused.length > 0) {
        // Refused writes only: what they found, for the 409's words (an extra round trip for them alone).
        const current = await this.versionsOf(
          t,
          refused.map((i) => writes[i].ns),
          refused.map((i) => writes[i].key),
        );
        for (const i of refused) {
          const { ns, key, expected } = writes[i];
          const now = current.get(entryKey(ns, key));
          outcomes[i] = {
            ok: false,
            conflict: writeConflict(expected, now) ?? `it changed while being written (now at version ${now ?? 'none'}); read it again and retry`,
          };
        }
      }
      return outcomes;
    };
    return new Coalescer(async (writes) => {
      // One statement writes a key once: a key written again in the batch waits for the next
      // statement, so writes to one key apply in arrival order.
      const outcomes = new Array<WriteOutcome>(writes.length);
      let rest = writes.map((_, i) => i);
      while (rest.length > 0) {
        const seen = new Set<string>();
        const now: number[] = [];
        const later: number[] = [];
        for (const i of rest) {
          const k = entryKey(writes[i].ns, writes[i].key);
          if (seen.has(k)) later.push(i);
          else {
            seen.add(k);
            now.push(i);
          }
        }
        const answered = await run(now.length === writes.length ? writes : now.map((i) => writes[i]));
        now.forEach((i, n) => (outcomes[i] = answered[n]));
        rest = later;
      }
      return outcomes;
    });
  }

  private async versionsOf(t: Table, namespaces: string[], keys: string[]): Promise<Map<string, number>> {
    const { rows } = await this.pool.query<{ namespace: string; key: string; version: number }>(
      prepared(`SELECT e.namespace, e.key, e.version FROM unnest($1::text[], $2::text[]) AS k(ns, key) JOIN ${t} e ON e.namespace = k.ns AND e.key = k.key`, [
        namespaces,
        keys,
      ]),
    );
    return new Map(rows.map((r) => [entryKey(r.namespace, r.key), r.version]));
  }
}

const table = (ns: string): Table => (isVolatileNamespace(ns) ? 'kv_volatile' : 'kv_entries');
const entryKey = (ns: string, key: string): string => `${ns}\0${key}`;
