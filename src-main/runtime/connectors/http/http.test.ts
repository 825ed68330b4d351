import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { loadDefinition } from '../../core/load/definition-loader.ts';
import { problemsOf } from '../../testing/load-yaml.ts';
import { HttpConnector } from './http.ts';
import { heldRuns, testRegistry } from './test-support/test-registry.ts';
import { LOOPBACK, serveYaml, type Served } from './test-support/serve-yaml.ts';

const open: Served[] = [];
const serve = async (yaml: string): Promise<Served> => {
  const s = await serveYaml(yaml);
  open.push(s);
  return s;
};
afterEach(async () => {
  for (const s of open.splice(0)) await s.stop();
});

function connectorOf(yaml: string): HttpConnector {
  const def = loadDefinition([{ file: 'flows.yaml', text: yaml }], { registry: testRegistry, mode: 'validate' });
  return def.connectors[0].instance as HttpConnector;
}

describe('the http connector (spec 2 §2.1)', () => {
  it('binds the port the OS picks for port 0 and reports it with every route’s URL under the basePath', async () => {
    const s = await serve(`connectors:
  web: {type: http, host: 127.0.0.1, port: 0, basePath: /api/}
flows:
  orders:
    source: {type: http, path: '/orders/{id}', methods: [GET]}
    steps: [{set: {body: '{"id": vars.id}'}}]
  health:
    source: {type: http, path: /}
    steps: [{set: {body: '"ok"'}}]
`);
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(s.url).not.toMatch(/:0$/);
    const details = s.runtime.describe().connectors[0].details;
    expect(details).toEqual({
      url: s.url,
      limits: { headersTimeoutMs: 10_000, bodyIdleTimeoutMs: 10_000, requestTimeoutMs: 300_000, maxConnections: 1000 },
      routes: [
        { flow: 'orders', path: '/api/orders/{id}', methods: ['GET'], sse: false, url: `${s.url}/api/orders/{id}` },
        { flow: 'health', path: '/api', methods: 'any', sse: false, url: `${s.url}/api` },
      ],
    });
    expect(await (await fetch(`${s.url}/api/orders/7`)).json()).toEqual({ id: '7' });
    expect(await (await fetch(`${s.url}/api`)).json()).toBe('ok');
    expect((await fetch(`${s.url}/orders/7`)).status).toBe(404);
  });

  it('defaults to 0.0.0.0:8080, takes $HTTP_HOST and $HTTP_PORT when set, and explicit settings win', () => {
    const saved = { host: process.env.HTTP_HOST, port: process.env.HTTP_PORT };
    try {
      delete process.env.HTTP_HOST;
      delete process.env.HTTP_PORT;
      expect(connectorOf('connectors: {http: {type: http}}').listenAddress).toEqual({ host: '0.0.0.0', port: 8080 });
      process.env.HTTP_HOST = '127.0.0.2';
      process.env.HTTP_PORT = '9191';
      expect(connectorOf('connectors: {http: {type: http}}').listenAddress).toEqual({ host: '127.0.0.2', port: 9191 });
      expect(connectorOf('connectors: {http: {type: http, host: 127.0.0.1, port: 0}}').listenAddress).toEqual({ host: '127.0.0.1', port: 0 });
      process.env.HTTP_PORT = 'eighty';
      expect(problemsOf('connectors: {http: {type: http}}')).toEqual(['flows.yaml:1:20 connectors.http: HTTP_PORT="eighty" is not a port number (0–65535)']);
    } finally {
      for (const [k, v] of [['HTTP_HOST', saved.host], ['HTTP_PORT', saved.port]] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });

  it('reports two flows serving the same method and path as a load error naming both', () => {
    expect(problemsOf(`${LOOPBACK}flows:
  first:
    source: {type: http, path: '/orders/{id}', methods: [GET, PUT]}
  second:
    source: {type: http, path: '/orders/{orderId}', methods: [PUT]}
  third:
    source: {type: http, path: '/orders/{id}', methods: [DELETE]}
`)).toEqual([
      'flows.yaml:7:20 flows.second.source: PUT /orders/{orderId} is already served by flow "first" (/orders/{id}); flows "first" and "second" cannot both serve it: give one another path or other methods',
    ]);
  });

  it('fails at load for a method name that is not an HTTP method, and for a malformed path', () => {
    expect(problemsOf(`${LOOPBACK}flows:
  a:
    source: {type: http, path: /a, methods: [GET, FETCH]}
  b:
    source: {type: http, path: 'b/{x'}
`)).toEqual([
      'flows.yaml:5:51 flows.a.source.methods[1]: "FETCH" is not one of GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS, TRACE, CONNECT',
      'flows.yaml:7:13 flows.b.source: route path "b/{x" must start with /',
    ]);
  });

  it('closes each connection after its response when keepAlive is false, and keeps it by default', async () => {
    const s = await serve(`connectors:
  http: {type: http, host: 127.0.0.1, port: 0, keepAlive: false}
flows:
  a: {source: {type: http, path: /a}, steps: [{set: {body: '1'}}]}
`);
    const res = await fetch(`${s.url}/a`);
    expect(res.headers.get('connection')).toBe('close');
    const kept = await serve(`${LOOPBACK}flows:
  a: {source: {type: http, path: /a}, steps: [{set: {body: '1'}}]}
`);
    expect((await fetch(`${kept.url}/a`)).headers.get('connection')).toBe('keep-alive');
  });

  it('answers 504 after the connector’s requestTimeout when the route sets none', async () => {
    const s = await serve(`connectors:
  http: {type: http, host: 127.0.0.1, port: 0, requestTimeout: 80ms}
flows:
  slow: {source: {type: http, path: /slow}, steps: [{wait: {for: 300ms}}]}
`);
    const res = await fetch(`${s.url}/slow`);
    expect(res.status).toBe(504);
    expect(await res.json()).toEqual({ error: 'flow "slow" did not answer within 80ms' });
  });

  it('drops a client that takes longer than readTimeout to send its request', async () => {
    const s = await serve(`connectors:
  http: {type: http, host: 127.0.0.1, port: 0, readTimeout: 200ms}
flows:
  a: {source: {type: http, path: /a}, steps: [{set: {body: '1'}}]}
`);
    const { port } = new URL(s.url);
    const reply = await new Promise<string>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.write('POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n12'));
      let text = '';
      socket.on('data', (d) => (text += d));
      socket.on('close', () => resolve(text));
      setTimeout(() => socket.destroy(), 5_000);
    });
    expect(reply).toMatch(/^HTTP\/1\.1 408/);
  });

  it('closes an idle keep-alive connection after idleTimeout', async () => {
    const s = await serve(`connectors:
  http: {type: http, host: 127.0.0.1, port: 0, idleTimeout: 100ms}
flows:
  a: {source: {type: http, path: /a}, steps: [{set: {body: '1'}}]}
`);
    const { port } = new URL(s.url);
    const t0 = Date.now();
    const closedAfter = await new Promise<number>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.write('GET /a HTTP/1.1\r\nHost: x\r\n\r\n'));
      socket.on('data', () => {});
      socket.on('close', () => resolve(Date.now() - t0));
      setTimeout(() => socket.destroy(), 5_000);
    });
    expect(closedAfter).toBeLessThan(2_000);
  });

  it('cuts a client that does not take its response within writeTimeout', async () => {
    const s = await serve(`connectors:
  http: {type: http, host: 127.0.0.1, port: 0, writeTimeout: 200ms}
flows:
  echo: {source: {type: http, path: /echo, rawBody: true, maxBodyBytes: 40000000}, steps: []}
`);
    const size = 32 * 1024 * 1024;
    const { port } = new URL(s.url);
    const received = await new Promise<number>((resolve) => {
      let bytes = 0;
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(`POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: ${size}\r\n\r\n`);
        socket.write(Buffer.alloc(size, 0x61));
        socket.pause(); // a client that stops reading
        setTimeout(() => socket.resume(), 1_000);
      });
      socket.on('data', (d) => (bytes += d.length));
      socket.on('error', () => {});
      socket.on('close', () => resolve(bytes));
      // Without the limit the whole answer would arrive and the connection stay open.
      setTimeout(() => {
        resolve(bytes);
        socket.destroy();
      }, 4_000);
    });
    expect(received).toBeLessThan(size);
  });

  it('answers 503 on a route whose flow has stopped, and stops listening on quiesce', async () => {
    const s = await serve(`${LOOPBACK}flows:
  a: {source: {type: http, path: /a}, steps: [{set: {body: '1'}}]}
`);
    await s.runtime.definition.flows.get('a')!.source!.stop();
    const res = await fetch(`${s.url}/a`, { headers: { connection: 'close' } });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: 'flow "a" is not running' });
    await s.runtime.quiesce();
    await expect(fetch(`${s.url}/a`)).rejects.toThrow();
  });

  it('answers a request held across a quiesce (a reload) with Connection: close, so a keep-alive client does not reuse a server that no longer serves', async () => {
    const s = await serve(`${LOOPBACK}flows:
  a: {source: {type: http, path: /a}, steps: [{hold: {}}, {set: {body: '1'}}]}
`);
    const { port } = new URL(s.url);
    const socket = connect(Number(port), '127.0.0.1');
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    const ended = new Promise<void>((resolve) => socket.once('end', () => resolve()));
    socket.write('GET /a HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: keep-alive\r\n\r\n');
    await heldRuns.arrived();
    await s.runtime.quiesce();
    heldRuns.releaseAll();
    await new Promise<void>((resolve) => {
      const check = (): void => {
        if (/\r\n\r\n1$/.test(received)) resolve();
        else socket.once('data', check);
      };
      check();
    });
    socket.on('error', () => {});
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
    expect(received.toLowerCase()).toContain('\r\nconnection: close\r\n');
    // And the server ends the connection rather than wait for another request on it.
    await ended;
    socket.destroy();
  });
});
