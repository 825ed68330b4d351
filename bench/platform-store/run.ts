/**
 * Platform store bench: the same platform on SQLite, on PostgreSQL, and as two replicas sharing
 * one PostgreSQL database, measured in one run. Prints KV GET and PUT throughput (wrk, keep-alive),
 * queue publish→receive→ack throughput, and publish→waiting-receiver latency (with two replicas
 * the receiver waits on one and the publish goes to the other: the cross-replica wake-up through
 * LISTEN/NOTIFY), then the ratios PostgreSQL/SQLite and two replicas/one.
 *
 * Servers are pinned to core 0 (a second replica to core 1), wrk and this process to core 1; the
 * PostgreSQL server is wherever the OS puts it. Everything binds 127.0.0.1.
 * Run: npm run bench:platform-store (starts a private PostgreSQL with .ci/postgres.sh)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { testDatabaseUrl } from '../../src-main/platform/testing/platform-harness.ts';
import { pinSelf, startPinned, type Server } from '../platform/processes.ts';
import { wrk, type WrkResult } from '../platform/wrk.ts';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'flow-store-bench-'));
const TOKEN = 'bench-token-store-7d21';
const auth = { authorization: `Bearer ${TOKEN}` };
const WRK = { seconds: 3, connections: 32, core: 1, dir: work };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Setup {
  name: string;
  servers: Server[];
}
interface Result {
  get: number;
  put: number;
  queue: number;
  wakeP50: number;
  wakeP99: number;
}

async function start(name: string, replicas: number, store?: string): Promise<Setup> {
  const servers: Server[] = [];
  for (let i = 0; i < replicas; i++) {
    const args = ['bin/flow-studio.js', 'platform', '--port', '0', '--data-dir', join(work, `${name}-${i}`), '--token', TOKEN, ...(store ? ['--store', store] : [])];
    servers.push(await startPinned(i, args, repo));
  }
  return { name, servers };
}

/** wrk against every replica at once (what a Service spreading connections does); sums the rates. */
async function wrkAll(setup: Setup, path: string, script?: string): Promise<WrkResult[]> {
  return Promise.all(setup.servers.map((s) => wrk(`${s.url}${path}`, { ...WRK, connections: WRK.connections / setup.servers.length, headers: auth, script })));
}
const rate = (rs: WrkResult[]): number => rs.reduce((n, r) => n + r.requestsPerSecond, 0);

async function measure(setup: Setup): Promise<Result> {
  const pools = setup.servers.map((s) => new Pool(s.url, { connections: 32 }));
  let rr = 0;
  const call = async (method: 'GET' | 'PUT' | 'POST', path: string, body?: unknown, raw?: string, on?: number): Promise<{ status: number; text: string }> => {
    const pool = pools[on ?? rr++ % pools.length];
    const res = await pool.request({ method, path, headers: { ...auth, 'content-type': raw === undefined ? 'application/json' : 'application/octet-stream' }, body: raw ?? (body === undefined ? undefined : JSON.stringify(body)) });
    return { status: res.statusCode, text: await res.body.text() };
  };
  await call('PUT', '/v1/kv/user/entry?key=bench', undefined, 'hello', 0);
  await wrkAll(setup, '/v1/kv/user/entry?key=bench'); // warm-up
  const get = rate(await wrkAll(setup, '/v1/kv/user/entry?key=bench'));
  const putScript = (prefix: string) => `
    local counter = 0
    wrk.method = "PUT"
    wrk.body = "hello"
    wrk.headers["Content-Type"] = "application/octet-stream"
    function request()
      counter = counter + 1
      return wrk.format(nil, "/v1/kv/user/entry?key=${prefix}-" .. counter .. "-" .. math.random(1, 1000000000))
    end`;
  const put = rate(await wrkAll(setup, '/', putScript(setup.name)));

  // Queue: wrk publishes on every replica; 4 consumers (spread over the replicas) drain and ack.
  await call('POST', '/v1/queues/tp/receive', { consumerGroup: 'bench', waitSeconds: 0 }, undefined, 0);
  let acked = 0;
  let lastAckAt = 0;
  let publishing = true;
  const consumer = async (c: number): Promise<void> => {
    for (;;) {
      const res = await call('POST', '/v1/queues/tp/receive', { consumerGroup: 'bench', waitSeconds: 1, maxMessages: 100 }, undefined, c % pools.length);
      if (res.status === 204) {
        if (!publishing) return;
        continue;
      }
      const handles = (JSON.parse(res.text) as { messages: Array<{ handle: string }> }).messages.map((m) => m.handle);
      await call('POST', '/v1/queues/tp/ack', { handles }, undefined, c % pools.length);
      acked += handles.length;
      lastAckAt = performance.now();
    }
  };
  const consumers = [0, 1, 2, 3].map(consumer);
  const queueStart = performance.now();
  const publishScript = `wrk.method = "POST"
    wrk.body = '{"body":{"order":42}}'
    wrk.headers["Content-Type"] = "application/json"`;
  const published = await wrkAll(setup, '/v1/queues/tp/publish', publishScript);
  publishing = false;
  await Promise.all(consumers);
  const queue = acked / ((lastAckAt - queueStart) / 1000);
  const lost = published.reduce((n, r) => n + r.requests, 0) - acked;
  if (lost > 0) console.log(`   ${setup.name}: ${lost} published messages were not received`);

  // Wake-up: the receiver waits on the first replica, the publish goes to the last one.
  const latencies: number[] = [];
  const last = pools.length - 1;
  await call('POST', '/v1/queues/wake/receive', { consumerGroup: 'bench', waitSeconds: 0 }, undefined, 0);
  for (let i = 0; i < 300; i++) {
    const waiting = call('POST', '/v1/queues/wake/receive', { consumerGroup: 'bench', waitSeconds: 5, maxMessages: 1 }, undefined, 0);
    await sleep(5); // the receive is parked
    const sentAt = performance.now();
    void call('POST', '/v1/queues/wake/publish', { body: i }, undefined, last);
    const res = await waiting;
    latencies.push(performance.now() - sentAt);
    if (res.status !== 200) throw new Error(`${setup.name}: receive answered ${res.status}`);
    await call('POST', '/v1/queues/wake/ack', { handles: [(JSON.parse(res.text) as { messages: Array<{ handle: string }> }).messages[0].handle] }, undefined, 0);
  }
  latencies.sort((a, b) => a - b);
  await Promise.all(pools.map((p) => p.close()));
  return { get, put, queue, wakeP50: latencies[Math.floor(latencies.length * 0.5)], wakeP99: latencies[Math.floor(latencies.length * 0.99)] };
}

async function main(): Promise<void> {
  await pinSelf(1);
  console.log('Platform store bench — SQLite vs PostgreSQL vs two replicas on one PostgreSQL; servers on cores 0/1, wrk on core 1, 127.0.0.1 only');
  const results = new Map<string, Result>();
  const setups: Array<() => Promise<Setup>> = [
    () => start('sqlite', 1),
    async () => start('postgres', 1, await testDatabaseUrl(join(work, 'pg-1'))),
    async () => start('postgres-x2', 2, await testDatabaseUrl(join(work, 'pg-2'))),
  ];
  for (const make of setups) {
    const setup = await make();
    try {
      const r = await measure(setup);
      results.set(setup.name, r);
      console.log(
        `${setup.name.padEnd(12)} KV GET ${fmt(r.get)} req/s   KV PUT ${fmt(r.put)} req/s   queue ${fmt(r.queue)} msg/s   wake-up p50 ${r.wakeP50.toFixed(2)} ms p99 ${r.wakeP99.toFixed(2)} ms`,
      );
    } finally {
      await Promise.all(setup.servers.map((s) => s.stop()));
    }
  }
  const [sqlite, pg1, pg2] = ['sqlite', 'postgres', 'postgres-x2'].map((n) => results.get(n)!);
  const ratio = (a: number, b: number): string => (a / b).toFixed(2);
  console.log('');
  console.log(`PostgreSQL / SQLite (one server):   KV GET ${ratio(pg1.get, sqlite.get)}   KV PUT ${ratio(pg1.put, sqlite.put)}   queue ${ratio(pg1.queue, sqlite.queue)}`);
  console.log(
    `two replicas / one (PostgreSQL):    KV GET ${ratio(pg2.get, pg1.get)} (target >= 1.6: ${pg2.get / pg1.get >= 1.6 ? 'met' : 'MISSED'})   KV PUT ${ratio(pg2.put, pg1.put)}   queue ${ratio(pg2.queue, pg1.queue)}`,
  );
  console.log(`cross-replica wake-up p50 ${pg2.wakeP50.toFixed(2)} ms (target <= 5 ms: ${pg2.wakeP50 <= 5 ? 'met' : 'MISSED'})`);
}

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US').padStart(7);

main()
  .catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => rmSync(work, { recursive: true, force: true }));
