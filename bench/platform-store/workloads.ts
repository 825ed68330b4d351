import { Pool } from 'undici';
import type { Server } from '../platform/processes.ts';
import { wrk, type WrkResult } from '../platform/wrk.ts';

/** A platform under test: one server, or replicas sharing one store (requests spread over them). */
export interface Setup {
  name: string;
  servers: Server[];
}

export interface Load {
  token: string;
  /** Where wrk writes its Lua scripts. */
  dir: string;
  seconds: number;
  /** Keep-alive connections in all, shared out over the replicas. */
  connections: number;
  /** The core wrk is pinned to; undefined: wherever the OS runs it. */
  core?: number;
}

export interface Rate {
  perSecond: number;
  requests: number;
  /** Requests answered with an error (non-2xx or a socket error), or messages never received. */
  errors: number;
}

/** Keys the GET workload reads, at random: the store cannot answer them all from one row. */
export const READ_KEYS = 1000;

/** wrk against every replica at once (what a Service spreading connections does); rates summed. */
async function wrkAll(setup: Setup, load: Load, path: string, script?: string | ((replica: number) => string)): Promise<Rate> {
  const runs: WrkResult[] = await Promise.all(
    setup.servers.map((s, replica) =>
      wrk(`${s.url}${path}`, {
        seconds: load.seconds,
        connections: Math.max(2, Math.round(load.connections / setup.servers.length)),
        threads: 2,
        core: load.core,
        dir: load.dir,
        headers: { authorization: `Bearer ${load.token}` },
        script: typeof script === 'function' ? script(replica) : script,
      }),
    ),
  );
  return {
    perSecond: runs.reduce((n, r) => n + r.requestsPerSecond, 0),
    requests: runs.reduce((n, r) => n + r.requests, 0),
    errors: runs.reduce((n, r) => n + r.errors, 0),
  };
}

function caller(setup: Setup, token: string) {
  const pools = setup.servers.map((s) => new Pool(s.url, { connections: 16 }));
  let next = 0;
  const call = async (method: 'GET' | 'PUT' | 'POST', path: string, body?: unknown, raw?: string, on?: number): Promise<{ status: number; text: string }> => {
    const res = await pools[on ?? next++ % pools.length].request({
      method,
      path,
      headers: { authorization: `Bearer ${token}`, 'content-type': raw === undefined ? 'application/json' : 'application/octet-stream' },
      body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
    });
    return { status: res.statusCode, text: await res.body.text() };
  };
  return { call, replicas: pools.length, close: () => Promise.all(pools.map((p) => p.close())) };
}

/** Writes the keys the GET workload reads. */
export async function seedReadKeys(setup: Setup, token: string): Promise<void> {
  const { call, close } = caller(setup, token);
  for (let i = 0; i < READ_KEYS; i += 50) {
    await Promise.all(Array.from({ length: 50 }, (_, j) => call('PUT', `/v1/kv/user/entry?key=read-${i + j}`, undefined, `value ${i + j}`)));
  }
  await close();
}

/** KV GET of a random one of READ_KEYS keys per request. */
export function kvGet(setup: Setup, load: Load): Promise<Rate> {
  const script = `
    math.randomseed(os.time())
    function request()
      return wrk.format("GET", "/v1/kv/user/entry?key=read-" .. math.random(0, ${READ_KEYS - 1}))
    end`;
  return wrkAll(setup, load, '/', script);
}

/** KV PUT creating a new key per request: a key per replica, wrk thread and request (wrk's threads draw the same random numbers). */
export function kvPut(setup: Setup, load: Load, prefix: string): Promise<Rate> {
  const script = (replica: number): string => `
    local next_id = 0
    function setup(thread) thread:set("id", next_id); next_id = next_id + 1 end
    local counter = 0
    wrk.method = "PUT"
    wrk.body = "hello"
    wrk.headers["Content-Type"] = "application/octet-stream"
    function request()
      counter = counter + 1
      return wrk.format(nil, "/v1/kv/user/entry?key=${prefix}-${replica}-" .. id .. "-" .. counter)
    end`;
  return wrkAll(setup, load, '/', script);
}

/**
 * Queue publish→receive→ack: wrk publishes on every replica for the load's seconds while 4
 * consumers (spread over the replicas) take up to 100 per receive and ack each batch; the rate
 * is messages acked a second, until the last ack. Published messages never received are errors.
 */
export async function queueThroughput(setup: Setup, load: Load, subject: string): Promise<Rate> {
  const { call, replicas, close } = caller(setup, load.token);
  await call('POST', `/v1/queues/${subject}/receive`, { consumerGroup: 'bench', waitSeconds: 0 }, undefined, 0);
  let acked = 0;
  let lastAckAt = 0;
  let publishing = true;
  const consumer = async (c: number): Promise<void> => {
    for (;;) {
      const res = await call('POST', `/v1/queues/${subject}/receive`, { consumerGroup: 'bench', waitSeconds: 1, maxMessages: 100 }, undefined, c % replicas);
      if (res.status === 204) {
        if (!publishing) return;
        continue;
      }
      const handles = (JSON.parse(res.text) as { messages: Array<{ handle: string }> }).messages.map((m) => m.handle);
      await call('POST', `/v1/queues/${subject}/ack`, { handles }, undefined, c % replicas);
      acked += handles.length;
      lastAckAt = performance.now();
    }
  };
  const consumers = [0, 1, 2, 3].map(consumer);
  const started = performance.now();
  const publishScript = `wrk.method = "POST"
    wrk.body = '{"body":{"order":42}}'
    wrk.headers["Content-Type"] = "application/json"`;
  const published = await wrkAll(setup, load, `/v1/queues/${subject}/publish`, publishScript);
  publishing = false;
  await Promise.all(consumers);
  await close();
  const lost = Math.max(0, published.requests - published.errors - acked);
  return { perSecond: acked / ((lastAckAt - started) / 1000), requests: acked, errors: published.errors + lost };
}

/** Publish→waiting receiver latency: the receiver waits on the first replica, the publish goes to the last one. */
export async function wakeUpLatency(setup: Setup, token: string, samples: number): Promise<{ p50: number; p99: number }> {
  const { call, replicas, close } = caller(setup, token);
  const last = replicas - 1;
  const latencies: number[] = [];
  await call('POST', '/v1/queues/wake/receive', { consumerGroup: 'bench', waitSeconds: 0 }, undefined, 0);
  for (let i = 0; i < samples; i++) {
    const waiting = call('POST', '/v1/queues/wake/receive', { consumerGroup: 'bench', waitSeconds: 5, maxMessages: 1 }, undefined, 0);
    await new Promise((r) => setTimeout(r, 5)); // the receive is parked
    const sentAt = performance.now();
    void call('POST', '/v1/queues/wake/publish', { body: i }, undefined, last);
    const res = await waiting;
    latencies.push(performance.now() - sentAt);
    if (res.status !== 200) throw new Error(`${setup.name}: receive answered ${res.status}`);
    await call(
      'POST',
      '/v1/queues/wake/ack',
      { handles: [(JSON.parse(res.text) as { messages: Array<{ handle: string }> }).messages[0].handle] },
      undefined,
      0,
    );
  }
  await close();
  latencies.sort((a, b) => a - b);
  return { p50: latencies[Math.floor(samples * 0.5)], p99: latencies[Math.floor(samples * 0.99)] };
}
