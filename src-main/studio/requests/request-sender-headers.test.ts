import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestSender } from './request-sender.ts';

let server: Server;
let url = '';
const seen: IncomingHttpHeaders[] = [];
const sender = new RequestSender();

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.headers);
    res.end('ok');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  await sender.close();
  await new Promise((r) => server.close(r));
});

const send = (headers: Array<[string, string]>) =>
  sender.send({ method: 'GET', url, headers, body: { kind: 'none' } }, { id: 'h', signal: new AbortController().signal, onProgress: () => {} });

describe('headers the composer sends', () => {
  it('sends a header name pasted with spaces around it without them', async () => {
    const r = await send([[' X-Trace ', 't-17']]);
    expect(r.status).toBe(200);
    expect(seen.at(-1)!['x-trace']).toBe('t-17');
  });

  it('refuses, naming the header, a name with a space, a value with a line break or beyond Latin-1, and sends nothing', async () => {
    const before = seen.length;
    await expect(send([['X Trace', '1']])).rejects.toThrow('header name "X Trace" is not valid');
    await expect(send([['X-Trace', 'a\r\nInjected: 1']])).rejects.toThrow('the value of header X-Trace has a line break');
    await expect(send([['X-Trace', 'smile 🙂']])).rejects.toThrow('the value of header X-Trace has "🙂", beyond Latin-1');
    expect(seen.length).toBe(before);
    // Latin-1 itself goes out, as its bytes.
    expect((await send([['X-Name', 'Zoë']])).status).toBe(200);
  });
});
