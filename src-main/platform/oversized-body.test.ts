import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from './testing/platform-harness.ts';

/**
 * Issue 18 item 5: a client sending a 10 MB body to any route receives the status (413 where the
 * route reads a body), not EPIPE/ECONNRESET because the server closed while it was still sending.
 */
let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.close());

const TEN_MB = 10 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 0x61);

interface Outcome {
  status?: number;
  body?: string;
  error?: string;
}

/**
 * A client that sends the whole request first and reads the answer afterwards, as simple HTTP
 * clients do: 64 KiB writes with a short pause after every MiB, so a server that answers and
 * closes mid-upload has done so while the client is still writing. Chunked when no length is declared.
 */
function send(method: string, path: string, bytes: number, declareLength: boolean): Promise<Outcome> {
  const url = new URL(platform.url + path);
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    // A client left waiting (no answer, no close) is a failure too, reported rather than hung.
    const deadline = setTimeout(() => {
      resolve({ error: 'no answer within 15 s' });
      socket.destroy();
    }, 15_000);
    socket.once('close', () => clearTimeout(deadline));
    let error: string | undefined;
    socket.on('error', (err: NodeJS.ErrnoException) => (error ??= err.code ?? err.message));
    const write = (data: Buffer | string): Promise<void> =>
      new Promise((done) => (socket.destroyed ? done() : socket.write(data) ? done() : socket.once('drain', done).once('close', done)));
    void (async () => {
      const framing = declareLength ? `content-length: ${bytes}` : 'transfer-encoding: chunked';
      await write(`${method} ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\nauthorization: Bearer ${platform.server.token}\r\ncontent-type: application/json\r\n${framing}\r\n\r\n`);
      for (let sent = 0; sent < bytes && !socket.destroyed; ) {
        const n = Math.min(CHUNK.length, bytes - sent);
        const piece = n === CHUNK.length ? CHUNK : CHUNK.subarray(0, n);
        await write(declareLength ? piece : Buffer.concat([Buffer.from(`${n.toString(16)}\r\n`), piece, Buffer.from('\r\n')]));
        sent += n;
        if (sent % (1024 * 1024) === 0) await new Promise((r) => setTimeout(r, 5));
      }
      if (!declareLength) await write('0\r\n\r\n');
      // Only now read the answer.
      let text = '';
      socket.setEncoding('latin1');
      socket.on('data', (c: string) => (text += c));
      const finish = (): void => {
        const status = /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1];
        resolve({ status: status === undefined ? undefined : Number(status), body: text.slice(text.indexOf('\r\n\r\n') + 4), error: status === undefined ? error : undefined });
      };
      socket.once('close', finish);
      // A kept-alive connection stays open after a complete answer: close it once the body is in.
      socket.on('data', () => {
        const head = text.indexOf('\r\n\r\n');
        const length = /content-length: (\d+)/i.exec(text)?.[1];
        if (head !== -1 && length !== undefined && text.length >= head + 4 + Number(length)) socket.destroy();
      });
    })();
  });
}

const concrete = (template: string): string =>
  template.replace(/\{[^}]+\}/g, 'p') + '?key=k&name=n&kind=env&userId=u';

describe('clients see the 413 of an oversized body', () => {
  it('every route answers a 10 MB body with a status the client receives (413 where a body is read)', async () => {
    const outcomes: Record<string, Outcome> = {};
    for (const route of platform.server.routes) {
      if (route.method === 'GET') continue;
      outcomes[`${route.method} ${route.path}`] = await send(route.method, concrete(route.path), TEN_MB, true);
    }
    const failed = Object.entries(outcomes).filter(([, o]) => o.status === undefined || o.error !== undefined);
    expect(failed, JSON.stringify(failed)).toEqual([]);
    const tooLarge = Object.entries(outcomes).filter(([, o]) => o.status === 413);
    expect(tooLarge.length).toBeGreaterThan(15);
    for (const [, o] of tooLarge) expect(JSON.parse(o.body!).error.code).toMatch(/too_large/);
  }, 120_000);

  it('a chunked body (no Content-Length) that grows past the limit also gets its 413', async () => {
    for (const path of ['/v1/queues/big/publish', '/v1/kv/user/entry?key=big', '/v1/leases/acquire']) {
      const method = path.startsWith('/v1/kv') ? 'PUT' : 'POST';
      const outcome = await send(method, path, TEN_MB, false);
      expect(outcome, path).toMatchObject({ status: 413 });
      expect(outcome.error, path).toBeUndefined();
    }
  }, 60_000);
});
