/**
 * Management bench: what a deployed runtime pays to read its tag's frozen resources, against the
 * working-copy read it replaces, and what tagging costs against downloading the same integration.
 *
 * 1. GET /snapshots/{id}/resources/content vs GET /v1/resources/content for the same 2 KiB
 *    template (wrk, 32 connections, alternating rounds), as a ratio.
 * 2. POST /integrations/{id}/tags (freezes 200 resources of 4 KiB in one transaction) vs
 *    GET /integrations/{id}/bundle (reads and tars the same bytes), median of 15 each, as a ratio.
 *
 * The platform runs in its own process pinned to core 0, wrk and this client on core 1; 127.0.0.1 only.
 * Run: npm run bench:management
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pinSelf, startPinned } from '../platform/processes.ts';
import { wrk, type WrkResult } from '../platform/wrk.ts';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'flow-management-bench-'));
const TOKEN = 'bench-token-management';
const auth = { authorization: `Bearer ${TOKEN}` };
const template = 'Hello {{ body.name }}, '.repeat(90).slice(0, 2048);

async function main(): Promise<void> {
  await pinSelf(1);
  mkdirSync(join(work, 'seed', 'template', 'emails'), { recursive: true });
  writeFileSync(join(work, 'seed', 'template', 'emails', 'welcome.txt'), template);
  const server = await startPinned(0, ['bin/flow-studio.js', 'platform', '--port', '0', '--data-dir', join(work, 'data'), '--token', TOKEN, '--seed-resources', join(work, 'seed')], repo);
  const call = async (method: string, path: string, json?: unknown): Promise<{ status: number; json: Record<string, unknown>; bytes: number }> => {
    const res = await fetch(server.url + path, { method, headers: { ...auth, 'content-type': 'application/json' }, body: json === undefined ? undefined : JSON.stringify(json) });
    const buf = Buffer.from(await res.arrayBuffer());
    const text = (res.headers.get('content-type') ?? '').startsWith('application/json') ? buf.toString('utf8') : '';
    return { status: res.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {}, bytes: buf.length };
  };
  try {
    console.log('Management bench — platform pinned to core 0, wrk and the client to core 1, 127.0.0.1 only');
    await call('PUT', '/integrations/mail/definitions/mail.yaml', { content: 'flows: {}\n' });
    await call('POST', '/integrations/mail/resources', { kind: 'template', name: 'emails/welcome.txt', content: template });
    const snapshot = String((await call('POST', '/integrations/mail/tags', { tag: 'v1' })).json.snapshotId);

    const options = { seconds: 3, connections: 32, core: 1, dir: work, headers: auth };
    const frozen: WrkResult[] = [];
    const working: WrkResult[] = [];
    for (let round = 0; round < 3; round++) {
      working.push(await wrk(`${server.url}/v1/resources/content?kind=template&name=emails%2Fwelcome.txt`, options));
      frozen.push(await wrk(`${server.url}/snapshots/${snapshot}/resources/content?kind=template&name=emails%2Fwelcome.txt`, options));
    }
    const best = (rs: WrkResult[]) => rs.reduce((a, b) => (b.requestsPerSecond > a.requestsPerSecond ? b : a));
    const f = best(frozen);
    const w = best(working);
    if (f.errors + w.errors > 0) throw new Error(`wrk saw errors: frozen ${f.errors}, working ${w.errors}`);
    console.log(`frozen resource read    ${f.requestsPerSecond.toFixed(0)} req/s (p50 ${f.latencyP50Ms.toFixed(2)} ms, p99 ${f.latencyP99Ms.toFixed(2)} ms)`);
    console.log(`working resource read   ${w.requestsPerSecond.toFixed(0)} req/s (p50 ${w.latencyP50Ms.toFixed(2)} ms, p99 ${w.latencyP99Ms.toFixed(2)} ms)`);
    console.log(`ratio frozen/working    ${(f.requestsPerSecond / w.requestsPerSecond).toFixed(2)}x throughput`);

    const content = 'X'.repeat(4096);
    for (let i = 0; i < 200; i++) await call('POST', '/integrations/big/resources', { kind: 'template', name: `pages/page-${i}.html`, content });
    await call('PUT', '/integrations/big/definitions/big.yaml', { content: 'flows: {}\n' });
    const tagMs: number[] = [];
    const bundleMs: number[] = [];
    for (let i = 0; i < 15; i++) {
      let t = performance.now();
      const tagged = await call('POST', '/integrations/big/tags', { tag: `v${i}` });
      tagMs.push(performance.now() - t);
      if (tagged.status !== 201) throw new Error(`tagging answered ${tagged.status}`);
      t = performance.now();
      const bundle = await call('GET', '/integrations/big/bundle');
      bundleMs.push(performance.now() - t);
      if (bundle.bytes < 200 * 4096) throw new Error('the bundle is short');
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    console.log(`tag 200 x 4 KiB         ${median(tagMs).toFixed(1)} ms median (one transaction)`);
    console.log(`bundle download (peer)  ${median(bundleMs).toFixed(1)} ms median`);
    console.log(`ratio tag/bundle        ${(median(tagMs) / median(bundleMs)).toFixed(2)}x time`);
  } finally {
    await server.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
