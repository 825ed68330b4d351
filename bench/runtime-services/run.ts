/**
 * Runtime services bench: what the `api` services module and the queue source cost over the
 * raw delegation API, measured against peers in the same run on the same platform server.
 *
 *  1. KV GET through `services.kv.get` vs a bare undici Agent sending the same request (the
 *     transport the client uses), so the ratio is the cost of the services layer itself.
 *  2. Queue messages drained through a queue-sourced flow (receive → run → ack per message)
 *     vs a raw client loop (receive a batch → ack the batch) on the same number of messages.
 *
 * The platform runs in its own process (`flow-studio platform`), the clients here; 127.0.0.1 only.
 * Run: npm run bench:runtime-services
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent } from 'undici';
import { createLogger } from '../../src-main/runtime/core/logger.ts';
import { Runtime } from '../../src-main/runtime/core/runtime.ts';
import { registry } from '../../src-main/runtime/registry.ts';
import { createApiServices } from '../../src-main/runtime/services/api-services.ts';
import type { AssembledServices } from '../../src-main/runtime/services/assemble-services.ts';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'flow-services-bench-'));
const TOKEN = 'bench-token-services';
const CONCURRENCY = 32;
const SECONDS = 3;
const MESSAGES = 4000;
const log = createLogger({ sinks: [] });

async function startPlatform(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['bin/flow-studio.js', 'platform', '--port', '0', '--data-dir', join(work, 'data'), '--token', TOKEN], {
    cwd: repo,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`platform exited with ${code}`)));
  });
  return { url, child };
}

/** Runs `op` from CONCURRENCY loops for SECONDS; operations per second. */
async function rate(op: () => Promise<unknown>): Promise<number> {
  const until = performance.now() + SECONDS * 1000;
  let count = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        await op();
        count++;
      }
    }),
  );
  return count / SECONDS;
}

async function publishMany(services: AssembledServices, subject: string, n: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < n) await services.queues.publish(subject, { n: next++ });
    }),
  );
}

async function main(): Promise<void> {
  const platform = await startPlatform();
  const env = { FLOW_PLATFORM_API_URL: platform.url, FLOW_PLATFORM_API_TOKEN: TOKEN, FLOW_DEPLOYMENT_ID: 'bench', FLOW_INSTANCE_ID: 'bench-1' };
  const services = await createApiServices(env, log);
  const agent = new Agent();
  try {
    console.log(`Runtime services bench — platform in its own process, ${CONCURRENCY} concurrent callers, 127.0.0.1`);
    await services.kv.put('user', 'bench/key', Buffer.from('{"hello":"world"}'));

    // 1. KV GET, alternating rounds so outside load hits both.
    const bare = async (): Promise<void> => {
      const res = await agent.request({ origin: platform.url, method: 'GET', path: '/v1/kv/user/entry?key=bench%2Fkey', headers: { authorization: `Bearer ${TOKEN}` } });
      await res.body.arrayBuffer();
    };
    const client = (): Promise<unknown> => services.kv.get('user', 'bench/key');
    const bareRates: number[] = [];
    const clientRates: number[] = [];
    for (let round = 0; round < 2; round++) {
      // Alternating which goes first, so warm-up and outside load fall on both.
      if (round % 2 === 0) bareRates.push(await rate(bare));
      clientRates.push(await rate(client));
      if (round % 2 === 1) bareRates.push(await rate(bare));
    }
    const best = (xs: number[]) => Math.max(...xs);
    console.log(`KV GET  bare undici Agent     ${best(bareRates).toFixed(0).padStart(7)} ops/s`);
    console.log(`KV GET  services.kv.get       ${best(clientRates).toFixed(0).padStart(7)} ops/s   ratio ${(best(clientRates) / best(bareRates)).toFixed(2)}`);

    // 2. Draining a queue: raw client loop vs a queue-sourced flow.
    await publishMany(services, 'bench-raw', MESSAGES);
    let t0 = performance.now();
    let drained = 0;
    while (drained < MESSAGES) {
      const batch = await services.queues.receive('bench-raw', { waitMs: 1000, maxMessages: CONCURRENCY });
      if (batch.length === 0) break;
      await services.queues.ack('bench-raw', batch.map((d) => d.handle));
      drained += batch.length;
    }
    const rawRate = drained / ((performance.now() - t0) / 1000);

    await publishMany(services, 'bench-flow', MESSAGES);
    const runtime = Runtime.load(
      [{ file: 'bench.yaml', text: `flows:\n  work:\n    workers: ${CONCURRENCY}\n    source: {type: queue, subject: bench-flow}\n    steps:\n      - set: {body: 'body.n + 1'}\n` }],
      { registry, env, log, services },
    );
    let done = 0;
    runtime.traces.add({ emit: (e) => e.kind === 'run' && done++ });
    t0 = performance.now();
    await runtime.start();
    while (done < MESSAGES) await new Promise((r) => setTimeout(r, 5));
    const flowRate = done / ((performance.now() - t0) / 1000);
    await runtime.stop();
    console.log(`Queue   raw receive+ack batch ${rawRate.toFixed(0).padStart(7)} msgs/s`);
    console.log(`Queue   queue-sourced flow    ${flowRate.toFixed(0).padStart(7)} msgs/s   ratio ${(flowRate / rawRate).toFixed(2)} (per-message runs, acks batched per turn, traces shipped)`);
  } finally {
    await agent.close();
    await services.close();
    platform.child.kill('SIGTERM');
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
