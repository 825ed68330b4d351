/**
 * PostgreSQL drivers side by side: `pg` (node-postgres) and `postgres` (porsager), on the
 * statements the platform's PostgreSQL store runs on its hot paths, measured in one run against
 * one database: a KV point read per request (what the store did before coalescing), the
 * coalesced KV read (one `unnest` join for every read that arrived together) and the coalesced
 * KV create (group commit: one statement for every write that arrived together). 32 callers
 * keep each busy; the figures are operations a second and this process's CPU per operation.
 *
 * Run: bash .ci/postgres.sh with-server node bin/run-ts.js bench/platform-store/drivers.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import postgres from 'postgres';
import { Coalescer } from '../../src-main/platform/store/postgres/coalescer.ts';
import { testDatabaseUrl } from '../../src-main/platform/testing/platform-harness.ts';

const CALLERS = 32;
const SECONDS = Number(process.env.DRIVER_BENCH_SECONDS ?? 3);
const KEYS = 1000;

/** What a driver must do here: run a statement with positional parameters, prepared. */
interface Driver {
  name: string;
  query(text: string, params: unknown[]): Promise<unknown[]>;
  end(): Promise<void>;
}

function nodePostgres(url: string): Driver {
  const pool = new pg.Pool({ connectionString: url, max: 16 });
  let n = 0;
  const names = new Map<string, string>();
  return {
    name: 'pg (node-postgres)',
    // Named: node-postgres prepares a statement once per connection when given a name.
    query: async (text, params) => {
      let name = names.get(text);
      if (!name) names.set(text, (name = `s${n++}`));
      return (await pool.query({ name, text, values: params })).rows;
    },
    end: () => pool.end(),
  };
}

function porsager(url: string): Driver {
  const sql = postgres(url, { max: 16, onnotice: () => {} });
  return {
    name: 'postgres (porsager)',
    // An array of Buffers would be sent typed bytea (its first element's type): sql.array types it bytea[].
    query: (text, params) => sql.unsafe(text, params.map((p) => (Array.isArray(p) && Buffer.isBuffer(p[0]) ? sql.array(p) : p)) as never[], { prepare: true }),
    end: () => sql.end(),
  };
}

const POINT_READ = 'SELECT value, version FROM bench_kv WHERE namespace = $1 AND key = $2';
const BATCH_READ = `SELECT k.i, e.value, e.version FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS k(ns, key, i)
  JOIN bench_kv e ON e.namespace = k.ns AND e.key = k.key`;
const BATCH_CREATE = `INSERT INTO bench_kv (namespace, key, value, version)
  SELECT ns, key, value, nextval('bench_version') FROM unnest($1::text[], $2::text[], $3::bytea[]) AS t(ns, key, value)
  ON CONFLICT (namespace, key) DO NOTHING RETURNING key, version`;

interface Figure {
  opsPerSecond: number;
  cpuMicrosPerOp: number;
}

/** CALLERS loops calling `op` for SECONDS; operations a second and this process's CPU per operation. */
async function drive(op: (caller: number, n: number) => Promise<unknown>): Promise<Figure> {
  let ops = 0;
  const until = performance.now() + SECONDS * 1000;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CALLERS }, async (_, caller) => {
      for (let n = 0; performance.now() < until; n++) {
        await op(caller, n);
        ops++;
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return { opsPerSecond: ops / seconds, cpuMicrosPerOp: (cpu.user + cpu.system) / ops };
}

async function measure(driver: Driver, run: number): Promise<Record<string, Figure>> {
  const key = (): string => `k${Math.floor(Math.random() * KEYS)}`;
  const value = Buffer.from('hello');
  const reads = new Coalescer<string, unknown>(async (keys) => {
    const rows = (await driver.query(BATCH_READ, [keys.map(() => 'user'), keys])) as Array<{ i: string | number; value: Buffer }>;
    const out = new Array<unknown>(keys.length);
    for (const r of rows) out[Number(r.i) - 1] = r.value;
    return out;
  });
  const creates = new Coalescer<string, unknown>(async (keys) => {
    await driver.query(BATCH_CREATE, [keys.map(() => 'user'), keys, keys.map(() => value)]);
    return keys.map(() => undefined);
  });
  await drive(() => driver.query(POINT_READ, ['user', key()])); // warm-up: connections, prepared statements, JIT
  return {
    'point read': await drive(() => driver.query(POINT_READ, ['user', key()])),
    'coalesced read': await drive(() => reads.submit(key())),
    'coalesced create': await drive((caller, n) => creates.submit(`new-${run}-${caller}-${n}`)),
  };
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'flow-driver-bench-'));
  try {
    const url = await testDatabaseUrl(join(work, 'drivers'));
    const setup = new pg.Client({ connectionString: url });
    await setup.connect();
    await setup.query('DROP TABLE IF EXISTS bench_kv; DROP SEQUENCE IF EXISTS bench_version');
    await setup.query(
      'CREATE SEQUENCE bench_version; CREATE TABLE bench_kv (namespace text, key text, value bytea NOT NULL, version bigint NOT NULL, PRIMARY KEY (namespace, key))',
    );
    await setup.query(`INSERT INTO bench_kv SELECT 'user', 'k' || i, 'hello', nextval('bench_version') FROM generate_series(0, ${KEYS - 1}) i`);
    await setup.end();
    console.log(`PostgreSQL drivers on the store's statements — ${CALLERS} callers, ${SECONDS} s each, two rounds in alternating order, one database`);
    const figures = new Map<string, Array<Record<string, Figure>>>();
    const makers = [nodePostgres, porsager];
    for (let round = 0; round < 2; round++) {
      for (const make of round === 0 ? makers : [...makers].reverse()) {
        const driver = make(url);
        try {
          const f = await measure(driver, figures.size * 10 + round);
          figures.set(driver.name, [...(figures.get(driver.name) ?? []), f]);
        } finally {
          await driver.end();
        }
      }
    }
    const best = (name: string, op: string): Figure => {
      const runs = figures.get(name)!.map((r) => r[op]);
      return runs.reduce((a, b) => (b.opsPerSecond > a.opsPerSecond ? b : a));
    };
    const [a, b] = [...figures.keys()];
    for (const op of ['point read', 'coalesced read', 'coalesced create']) {
      const fa = best(a, op);
      const fb = best(b, op);
      console.log(
        `${op.padEnd(17)} ${a}: ${fmt(fa.opsPerSecond)} ops/s, ${fa.cpuMicrosPerOp.toFixed(1)} µs CPU/op   ${b}: ${fmt(fb.opsPerSecond)} ops/s, ${fb.cpuMicrosPerOp.toFixed(1)} µs CPU/op   ` +
          `${b.split(' ')[0]}/${a.split(' ')[0]} ${(fb.opsPerSecond / fa.opsPerSecond).toFixed(2)}× ops, ${(fb.cpuMicrosPerOp / fa.cpuMicrosPerOp).toFixed(2)}× CPU`,
      );
    }
    console.log('(the better of the two rounds per driver; the machine may be loaded: compare within the run)');
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US').padStart(7);

await main();
