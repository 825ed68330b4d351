/**
 * Requests per second of a flow making one `rest` GET per message, beside undici's own request
 * loop against the same local server in the same run. Target: the flow reaches at least 70% of
 * plain undici.
 *
 *   npm run bench:http-client            (BENCH_SECONDS=3 BENCH_CONCURRENCY=64 by default)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { Agent } from 'undici';
import { Runtime } from '../../src-main/runtime/core/runtime.ts';
import { registry } from '../../src-main/runtime/registry.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

/** The upstream runs in its own process so it does not share the client's event loop. */
const UPSTREAM = `
const http = require('node:http');
const payload = JSON.stringify({ id: 1, name: 'widget', price: 9.5, tags: ['a', 'b'] });
const server = http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) });
  res.end(payload);
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));
`;

async function startUpstream(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['-e', UPSTREAM], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  return { url: `http://127.0.0.1:${chunk.toString().trim()}`, child };
}

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

async function main(): Promise<void> {
  const { url, child } = await startUpstream();
  const agent = new Agent({ connections: 100 });
  const plain = async (): Promise<void> => {
    const res = await agent.request({ origin: url, path: '/items/1', method: 'GET' });
    if (res.statusCode !== 200) throw new Error(`upstream answered ${res.statusCode}`);
    await res.body.json();
  };

  const runtime = Runtime.load(
    [
      {
        file: 'bench.yaml',
        text: `connectors:
  api: {type: http-client, baseURL: "${url}"}
flows:
  get-item:
    workers: ${CONCURRENCY}
    steps:
      - rest: {connector: api, path: /items/1}
`,
      },
    ],
    { registry, env: {} },
  );
  await runtime.start();
  const flow = async (): Promise<void> => {
    const result = await runtime.run('get-item');
    if (result.outcome !== 'completed') throw new Error(`flow ${result.outcome}: ${result.error?.message}`);
  };

  // Warm both paths (JIT, connections) before measuring.
  await measure(1, plain);
  await measure(1, flow);
  let best = { plain: 0, flow: 0 };
  for (let round = 1; round <= ROUNDS; round++) {
    const p = await measure(SECONDS, plain);
    const f = await measure(SECONDS, flow);
    console.log(`round ${round}: undici ${p.toFixed(0)} req/s, flow ${f.toFixed(0)} req/s`);
    best = { plain: Math.max(best.plain, p), flow: Math.max(best.flow, f) };
  }
  const ratio = best.flow / best.plain;
  console.log(`\nundici request loop : ${best.plain.toFixed(0)} req/s`);
  console.log(`flow with rest GET  : ${best.flow.toFixed(0)} req/s`);
  console.log(`ratio               : ${(ratio * 100).toFixed(1)}% of plain undici (target >= 70%) ${ratio >= 0.7 ? 'OK' : 'BELOW TARGET'}`);
  console.log(`(concurrency ${CONCURRENCY}, ${SECONDS}s per measurement, best of ${ROUNDS} rounds, node ${process.version})`);

  await runtime.stop();
  await agent.close();
  child.kill();
}

await main();
