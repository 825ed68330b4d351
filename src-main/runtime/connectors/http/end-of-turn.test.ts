import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { endThisTurn, endsThisTurn } from '../../../../shared/end-of-turn.ts';

let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A server that holds its requests unanswered: `held` resolves once `n` of them are in. */
async function holding(n: number): Promise<{ url: string; held: Promise<ServerResponse[]> }> {
  const waiting: ServerResponse[] = [];
  let release: (all: ServerResponse[]) => void = () => {};
  const held = new Promise<ServerResponse[]>((resolve) => (release = resolve));
  const url = await serve((req, res) => {
    waiting.push(res);
    if (waiting.length === n) release(waiting);
  });
  return { url, held };
}

function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}

describe('endThisTurn', () => {
  it('answers at the end of the turn: headers count as sent at once, the body is written before any timer of the next turn', async () => {
    const seen: Array<Record<string, boolean>> = [];
    const url = await serve((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': 2 });
      endThisTurn(res, 'ok');
      const now = { headersSent: res.headersSent, ended: res.writableEnded };
      setTimeout(() => seen.push({ ...now, endedByTimer: res.writableEnded }), 0);
    });
    expect(await get(`${url}/a`)).toEqual({ status: 200, body: 'ok' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(seen).toEqual([{ headersSent: true, ended: false, endedByTimer: true }]);
  });

  it('ends every response of a turn, skipping one whose client left and one that cannot be ended', async () => {
    const { url, held } = await holding(4);
    const answers = [get(`${url}/1`), get(`${url}/2`)];
    const gone = request(`${url}/gone`).on('error', () => {});
    gone.end();
    const broken = request(`${url}/broken`).on('error', () => {});
    broken.end();
    const waiting = await held;
    // Answered in one turn, in arrival order whatever it was: the two that leave are found by URL.
    for (const res of waiting) {
      const url = res.req.url;
      res.writeHead(200, { 'content-type': 'text/plain' });
      if (url === '/gone') res.destroy();
      if (url === '/broken') {
        res.end = () => {
          throw new Error('cannot end');
        };
      }
      endThisTurn(res, `answer ${url}`);
    }
    expect(await Promise.all(answers)).toEqual([
      { status: 200, body: 'answer /1' },
      { status: 200, body: 'answer /2' },
    ]);
    const brokenRes = waiting.find((r) => r.req.url === '/broken')!;
    expect(brokenRes.destroyed).toBe(true);
  });

  it('answers responses ended while ending the turn (a finish listener answering another) in the same turn', async () => {
    const { url, held } = await holding(2);
    const answers = [get(`${url}/first`), get(`${url}/second`)];
    const waiting = await held;
    const [first, second] = [waiting.find((r) => r.req.url === '/first')!, waiting.find((r) => r.req.url === '/second')!];
    first.writeHead(200);
    first.once('prefinish', () => {
      second.writeHead(200);
      endThisTurn(second, 'second');
    });
    endThisTurn(first, 'first');
    expect(await Promise.all(answers)).toEqual([
      { status: 200, body: 'first' },
      { status: 200, body: 'second' },
    ]);
  });
});

describe('endsThisTurn', () => {
  it('is true from endThisTurn until the turn ends, and false for a response not given to it', async () => {
    const seen: boolean[] = [];
    const url = await serve((req, res) => {
      seen.push(endsThisTurn(res));
      res.writeHead(200, { 'content-length': 2 });
      endThisTurn(res, 'ok');
      seen.push(endsThisTurn(res));
      setImmediate(() => seen.push(endsThisTurn(res)));
    });
    expect((await get(`${url}/`)).body).toBe('ok');
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(seen).toEqual([false, true, false]);
  });
});
