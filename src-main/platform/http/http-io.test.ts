import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from './api-error.ts';
import { sendError, sendJson } from './http-io.ts';

let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

describe('platform answers', () => {
  it('a failure after the answer (its bytes still waiting for the end of the turn) leaves the answer whole; one mid-stream cuts the connection', async () => {
    server = createServer((req, res) => {
      if (req.url === '/answered') {
        sendJson(res, 200, { ok: true });
        sendError(res, new ApiError(500, 'internal_error', 'failed after answering'));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('part');
      sendError(res, new ApiError(500, 'internal_error', 'failed mid-stream'));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const answered = await fetch(`${url}/answered`);
    expect(answered.status).toBe(200);
    expect(await answered.json()).toEqual({ ok: true });
    await expect(fetch(`${url}/streaming`).then((r) => r.text())).rejects.toThrow();
  });
});
