/**
 * Operations per second of docstore blocks inside a flow, beside the bare driver doing the same
 * operation against the same server in the same run. The difference is the flow engine, CEL and
 * the extended-JSON conversion both ways. Target: the flow reaches at least 70% of the driver.
 * FerretDB on SQLite is slow enough to hide most of that, so the conversion is also measured
 * alone, beside bson's own EJSON on the same documents.
 *
 *   npm run bench:docstore      (starts FerretDB with .ci/ferretdb.sh; or set DOCSTORE_TEST_URI)
 *   BENCH_SECONDS=3 BENCH_CONCURRENCY=32 BENCH_ROUNDS=3 by default
 */
import { EJSON } from 'bson';
import { MongoClient, ObjectId } from 'mongodb';
import { Runtime } from '../../src-main/runtime/core/runtime.ts';
import { registry } from '../../src-main/runtime/registry.ts';
import { parseConnectionString, formatConnectionString, decode } from '../../src-main/runtime/connectors/docstore/connection-string.ts';
import { toBsonValue, toExtendedJson } from '../../src-main/runtime/connectors/docstore/extended-json.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const URI = process.env.DOCSTORE_TEST_URI;
const DATABASE = `flowbench_${process.pid}`;

/** Runs `op` from CONCURRENCY loops for `seconds`; returns completed operations per second. */
async function measure(seconds: number, op: () => Promise<void>): Promise<number> {
  const deadline = performance.now() + seconds * 1000;
  let done = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < deadline) {
        await op();
        done++;
      }
    }),
  );
  return done / ((performance.now() - started) / 1000);
}

function ok(result: { outcome: string; error?: { message: string } }): void {
  if (result.outcome !== 'completed') throw new Error(`flow ${result.outcome}: ${result.error?.message}`);
}

async function main(): Promise<void> {
  if (!URI) throw new Error('set DOCSTORE_TEST_URI, or run: npm run bench:docstore');
  const cs = parseConnectionString(URI);
  const password = cs.password === undefined ? undefined : decode(cs.password);
  const client = new MongoClient(URI, { maxPoolSize: 32 });
  const items = client.db(DATABASE).collection('items');
  const seed = Array.from({ length: 200 }, (_, i) => ({ _id: new ObjectId(), name: `item ${i}`, price: i + 0.5, tags: ['a', 'b'], at: new Date() }));
  await items.insertMany(seed);
  const oneId = seed[100]._id;

  const runtime = Runtime.load(
    [
      {
        file: 'bench.yaml',
        text: `env:
  PW: {secret: true}
connectors:
  store: {type: docstore, uri: ${JSON.stringify(formatConnectionString({ ...cs, password: undefined }))}, ${password === undefined ? '' : "password: '${PW}', "}database: ${DATABASE}}
flows:
  by-id:
    workers: ${CONCURRENCY}
    steps:
      - docstore-find: {connector: store, collection: '"items"', filter: '{"_id": {"$oid": body.id}}', single: true}
  page:
    workers: ${CONCURRENCY}
    steps:
      - docstore-find: {connector: store, collection: '"items"', sort: '{"_id": 1}', limit: 20}
  insert:
    workers: ${CONCURRENCY}
    steps:
      - docstore-insert: {connector: store, collection: '"inserted"', document: body}
`,
      },
    ],
    { registry, env: password === undefined ? {} : { PW: password } },
  );
  await runtime.start();

  const cases: Array<{ name: string; driver: () => Promise<void>; flow: () => Promise<void> }> = [
    {
      name: 'find one by _id',
      driver: async () => void (await items.findOne({ _id: oneId })),
      flow: async () => ok(await runtime.run('by-id', { id: oneId.toHexString() })),
    },
    {
      name: 'find a page of 20',
      driver: async () => void (await items.find({}).sort({ _id: 1 }).limit(20).toArray()),
      flow: async () => ok(await runtime.run('page')),
    },
    {
      name: 'insert one',
      driver: async () => void (await client.db(DATABASE).collection('inserted').insertOne({ name: 'x', price: 1.5, at: new Date() })),
      flow: async () => ok(await runtime.run('insert', { name: 'x', price: 1.5, at: { $date: new Date().toISOString() } })),
    },
  ];

  const lines: string[] = [];
  let worst = Infinity;
  for (const c of cases) {
    await measure(1, c.driver); // warm JIT and connections
    await measure(1, c.flow);
    let best = { driver: 0, flow: 0 };
    for (let round = 1; round <= ROUNDS; round++) {
      const d = await measure(SECONDS, c.driver);
      const f = await measure(SECONDS, c.flow);
      console.log(`${c.name}, round ${round}: driver ${d.toFixed(0)} ops/s, flow ${f.toFixed(0)} ops/s`);
      best = { driver: Math.max(best.driver, d), flow: Math.max(best.flow, f) };
    }
    const ratio = best.flow / best.driver;
    worst = Math.min(worst, ratio);
    lines.push(`${c.name.padEnd(18)}: driver ${best.driver.toFixed(0).padStart(6)} ops/s, flow ${best.flow.toFixed(0).padStart(6)} ops/s, ratio ${(ratio * 100).toFixed(1)}%`);
  }
  console.log(`\n${lines.join('\n')}`);
  console.log(`worst ratio: ${(worst * 100).toFixed(1)}% of the bare driver (target >= 70%) ${worst >= 0.7 ? 'OK' : 'BELOW TARGET'}`);
  console.log(`(concurrency ${CONCURRENCY}, ${SECONDS}s per measurement, best of ${ROUNDS} rounds, node ${process.version})`);

  // The conversion alone: a page of 20 documents read as relaxed extended JSON, and written back.
  const page = await items.find({}, { promoteValues: false }).sort({ _id: 1 }).limit(20).toArray();
  const pageJson = JSON.parse(JSON.stringify(toExtendedJson(page, 'relaxed'))) as unknown[];
  const timeIt = (fn: () => unknown): number => {
    for (let i = 0; i < 2000; i++) fn();
    const t0 = performance.now();
    let n = 0;
    while (performance.now() - t0 < SECONDS * 1000) {
      fn();
      n++;
    }
    return n / ((performance.now() - t0) / 1000);
  };
  const readOurs = timeIt(() => toExtendedJson(page, 'relaxed'));
  const readPeer = timeIt(() => EJSON.serialize(page, { relaxed: true }));
  const writeOurs = timeIt(() => toBsonValue(pageJson));
  const writePeer = timeIt(() => EJSON.deserialize(pageJson as never, { relaxed: false }));
  console.log(`\nconversion of a page of 20 (pages/s): read ${readOurs.toFixed(0)} vs EJSON.serialize ${readPeer.toFixed(0)} (${((readOurs / readPeer) * 100).toFixed(1)}%), write ${writeOurs.toFixed(0)} vs EJSON.deserialize ${writePeer.toFixed(0)} (${((writeOurs / writePeer) * 100).toFixed(1)}%)`);

  await runtime.stop();
  await client.db(DATABASE).dropDatabase();
  await client.close();
}

await main();
