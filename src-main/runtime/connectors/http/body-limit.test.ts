import { closeSync, ftruncateSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { curl } from './test-support/curl.ts';
import { LOOPBACK, serveYaml, type Served } from './test-support/serve-yaml.ts';

const MiB = 1024 * 1024;

/** An upload produced chunk by chunk, so the test itself never holds it in memory. */
async function* upload(totalBytes: number, chunkBytes = 64 * 1024): AsyncGenerator<Buffer> {
  const chunk = Buffer.alloc(chunkBytes, 0x61);
  for (let sent = 0; sent < totalBytes; sent += chunkBytes) yield chunk;
}

describe('maxBodyBytes (spec 2 §2.2, §7 413)', () => {
  let s: Served;
  beforeAll(async () => {
    s = await serveYaml(`${LOOPBACK}flows:
  upload:
    source: {type: http, path: /upload, rawBody: true}
    steps:
      - set: {body: '{"bytes": size(body.rawData)}'}
  tiny:
    source: {type: http, path: /tiny, maxBodyBytes: 10}
    steps:
      - set: {body: '{"ok": true}'}
`);
  });
  afterAll(() => s.stop());

  it('accepts a body up to the limit', async () => {
    const res = await fetch(`${s.url}/tiny`, { method: 'POST', body: '[1,2,3,45]' });
    expect(res.status).toBe(200);
  });

  it('answers 413 when the declared length is over the limit, without running the flow', async () => {
    const before = s.runs.length;
    const res = await fetch(`${s.url}/tiny`, { method: 'POST', body: '[1,2,3,4,5,6]' });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: 'request body is larger than maxBodyBytes (10 bytes)' });
    expect(s.runs.length).toBe(before);
    // Traced as a run of no steps saying why, so the request is not missing from the traces.
    // It carries the deployment and instance, as every run record does (spec 1 §4.6).
    expect(s.refused.at(-1)).toMatchObject({
      kind: 'run',
      flow: 'tiny',
      outcome: 'failed',
      error: 'refused before the flow ran: request body is larger than maxBodyBytes (10 bytes)',
      deployment: expect.any(String),
      instance: expect.any(String),
    });
  });

  it('answers 413 for a chunked body that crosses the limit while streaming', async () => {
    const res = await request(`${s.url}/tiny`, { method: 'POST', body: Readable.from(upload(1000, 8)) });
    expect(res.statusCode).toBe(413);
    await res.body.dump();
  });

  it('refuses a 50 MiB streamed upload against the 1 MiB default with 413, and memory stays bounded', async () => {
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    try {
      const res = await request(`${s.url}/upload`, { method: 'POST', body: Readable.from(upload(50 * MiB)), headers: { 'content-type': 'application/octet-stream' } });
      expect(res.statusCode).toBe(413);
      await res.body.dump();
    } catch (err) {
      // The server may hang up before the whole upload is sent; what matters is it never buffered it.
      expect(String((err as Error).message)).toMatch(/other side closed|ECONNRESET|socket|EPIPE/i);
    } finally {
      clearInterval(sampler);
    }
    expect((peak - rssBefore) / MiB).toBeLessThan(24);
  });

  it('answers curl’s 50 MiB file upload 413 from its declared length, before curl sends the body', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'http-upload-'));
    const file = join(dir, 'big.bin');
    try {
      const fd = openSync(file, 'w');
      ftruncateSync(fd, 50 * MiB);
      closeSync(fd);
      const t0 = Date.now();
      // curl asks `Expect: 100-continue` for a large upload; the 413 comes before the body is invited.
      const res = await curl(['-X', 'POST', '-T', file, '-H', 'content-type: application/octet-stream', '-w', '\n%{size_upload}', `${s.url}/upload`]);
      expect(res.status).toBe(413);
      expect(res.body.split('\n').at(-1)).toBe('0');
      expect(Date.now() - t0).toBeLessThan(5_000);
      // Without Expect the body is already on its way: the 413 still arrives, and the rest is dropped.
      const pushed = await curl(['-X', 'POST', '-T', file, '-H', 'expect:', `${s.url}/upload`]);
      expect(pushed.status).toBe(413);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('runs nothing for a client that leaves mid-body, and goes on serving', async () => {
    const before = s.runs.length;
    const { hostname, port } = new URL(s.url);
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => {
        socket.write('POST /tiny HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n[1,2');
        // Closed once the server has the headers and part of the body.
        setImmediate(() => socket.destroy());
      });
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    const res = await fetch(`${s.url}/tiny`, { method: 'POST', body: '[1,2,3,45]' });
    expect(res.status).toBe(200);
    await vi.waitFor(() => expect(s.runs.length).toBe(before + 1));
  });
});
