import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { apiConfigFromEnv } from './api-config.ts';
import { HttpTransport } from './http-transport.ts';
import { PlatformUnreachableError } from './platform-error.ts';

let server: Server | undefined;
let transport: HttpTransport | undefined;
afterEach(async () => {
  await transport?.close();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = transport = undefined;
});

/** A platform stand-in on 127.0.0.1; `handle` answers (or not); returns the client and the connections seen. */
async function serve(handle: (req: IncomingMessage, body: Buffer, res: ServerResponse) => void, env: Record<string, string> = {}) {
  const connections = new Set<unknown>();
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, Buffer.concat(chunks), res));
  });
  server.on('connection', (socket) => connections.add(socket));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  transport = new HttpTransport(apiConfigFromEnv({ FLOW_PLATFORM_API_URL: `http://127.0.0.1:${port}/base/`, FLOW_PLATFORM_API_TOKEN: 't0ken', ...env }));
  return { http: transport, connections };
}

describe('the platform client over node:http', () => {
  it('sends method, path under the base URL, query, token, static headers and the body; answers status, headers and bytes', async () => {
    const seen: Array<{ method?: string; url?: string; auth?: string; api?: string; type?: string; length?: string; body: string }> = [];
    const { http, connections } = await serve(
      (req, body, res) => {
        seen.push({ method: req.method, url: req.url, auth: req.headers.authorization, api: req.headers['x-api-key'] as string, type: req.headers['content-type'], length: req.headers['content-length'], body: body.toString() });
        res.writeHead(201, { 'x-object-version': '7', 'content-type': 'application/json' }).end('{"ok":true}');
      },
      { FLOW_PLATFORM_API_HEADERS: 'X-Api-Key=k1' },
    );
    const res = await http.call({ method: 'PUT', path: '/v1/kv/user/entry', query: { key: 'a b', skip: undefined }, json: { v: 1 } });
    expect(res.status).toBe(201);
    expect(res.header('X-Object-Version')).toBe('7');
    expect(res.json()).toEqual({ ok: true });
    expect(res.body).toBeInstanceOf(Uint8Array);
    const bytes = await http.call({ method: 'POST', path: '/v1/x', bytes: new Uint8Array([1, 2, 3]) });
    expect(bytes.status).toBe(201);
    await http.call({ method: 'DELETE', path: '/v1/y' });
    expect(seen).toEqual([
      { method: 'PUT', url: '/base/v1/kv/user/entry?key=a+b', auth: 'Bearer t0ken', api: 'k1', type: 'application/json', length: '7', body: '{"v":1}' },
      { method: 'POST', url: '/base/v1/x', auth: 'Bearer t0ken', api: 'k1', type: 'application/octet-stream', length: '3', body: '\u0001\u0002\u0003' },
      { method: 'DELETE', url: '/base/v1/y', auth: 'Bearer t0ken', api: 'k1', type: undefined, length: undefined, body: '' },
    ]);
    // One kept-alive connection for calls one after another.
    expect(connections.size).toBe(1);
  });

  it('gives up on a platform that does not answer within the timeout, naming the route', async () => {
    const { http } = await serve(() => {});
    const started = performance.now();
    const err = await http.call({ method: 'GET', path: '/v1/discovery', timeoutMs: 200 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PlatformUnreachableError);
    expect((err as Error).message).toBe('platform GET /v1/discovery could not be reached: no answer within 200 ms');
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('throws the abort reason of a call whose signal fires, and a refused connection as unreachable', async () => {
    const { http } = await serve(() => {});
    const controller = new AbortController();
    const reason = new Error('source stopping');
    const call = http.call({ method: 'POST', path: '/v1/queues/q/receive', signal: controller.signal });
    setTimeout(() => controller.abort(reason), 50);
    await expect(call).rejects.toBe(reason);
    const refused = new HttpTransport(apiConfigFromEnv({ FLOW_PLATFORM_API_URL: 'http://127.0.0.1:1' }));
    await expect(refused.call({ method: 'GET', path: '/v1/discovery' })).rejects.toThrow(/platform GET \/v1\/discovery could not be reached: .*ECONNREFUSED/);
    await refused.close();
  });

  it('closes with calls still open: they get a grace, then are cut, and later calls are refused', async () => {
    const { http } = await serve(() => {});
    const open = http.call({ method: 'POST', path: '/v1/queues/q/receive', timeoutMs: 60_000 }).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    await http.close();
    expect(performance.now() - started).toBeGreaterThan(1500);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(String(await open)).toMatch(/could not be reached: the platform client is closed/);
    await expect(http.call({ method: 'GET', path: '/v1/discovery' })).rejects.toThrow(/the platform client is closed/);
  });

  it.runIf(spawnSync('openssl', ['version']).status === 0)('speaks mutual TLS to an https platform, trusting the CA file it is given', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flow-platform-tls-'));
    try {
      const cert = (name: string, cn: string, san: string[]) =>
        spawnSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', `/CN=${cn}`, ...san, '-keyout', join(dir, `${name}.key`), '-out', join(dir, `${name}.crt`)], { encoding: 'utf8' });
      expect(cert('server', 'platform', ['-addext', 'subjectAltName=IP:127.0.0.1']).status).toBe(0);
      expect(cert('client', 'runtime', []).status).toBe(0);
      const tls = createTlsServer({ key: readFileSync(join(dir, 'server.key')), cert: readFileSync(join(dir, 'server.crt')), ca: readFileSync(join(dir, 'client.crt')), requestCert: true, rejectUnauthorized: true }, (req, res) => {
        const peer = (req.socket as TLSSocket).getPeerCertificate();
        res.end(JSON.stringify({ client: peer.subject?.CN, path: req.url }));
      });
      server = tls;
      await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
      const { port } = tls.address() as AddressInfo;
      transport = new HttpTransport(
        apiConfigFromEnv({
          FLOW_PLATFORM_API_URL: `https://127.0.0.1:${port}`,
          FLOW_PLATFORM_API_TLS_CA_FILE: join(dir, 'server.crt'),
          FLOW_PLATFORM_API_TLS_CERT_FILE: join(dir, 'client.crt'),
          FLOW_PLATFORM_API_TLS_KEY_FILE: join(dir, 'client.key'),
        }),
      );
      const res = await transport.call({ method: 'GET', path: '/v1/discovery' });
      expect(res.json()).toEqual({ client: 'runtime', path: '/v1/discovery' });
      // Without the client certificate the platform refuses the handshake.
      const anonymous = new HttpTransport(apiConfigFromEnv({ FLOW_PLATFORM_API_URL: `https://127.0.0.1:${port}`, FLOW_PLATFORM_API_TLS_CA_FILE: join(dir, 'server.crt') }));
      await expect(anonymous.call({ method: 'GET', path: '/v1/discovery' })).rejects.toThrow(PlatformUnreachableError);
      await anonymous.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
