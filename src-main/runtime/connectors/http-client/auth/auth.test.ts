import { SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LogRecord } from '../../../core/logger.ts';
import type { Runtime } from '../../../core/runtime.ts';
import { startYaml } from '../../../testing/load-yaml.ts';
import { json, startRecordingServer, type Arrival, type RecordingServer } from '../testing/recording-server.ts';

const CLIENT_SECRET = 'cl1ent-s3cret-value';

let server: RecordingServer;
let runtime: Runtime | undefined;
let logs: LogRecord[] = [];

beforeAll(async () => {
  server = await startRecordingServer();
});
afterAll(() => server.close());
afterEach(async () => {
  await runtime?.stop();
  runtime = undefined;
  server.reset();
  delete process.env.GCE_METADATA_HOST;
});

async function start(auth: string, steps = '- rest: {connector: api, path: /api/orders}'): Promise<Runtime> {
  ({ runtime, logs } = await startYaml(`connectors:
  api:
    type: http-client
    baseURL: ${server.url}
    auth:
${auth.replace(/^/gm, '      ')}
flows:
  call:
    steps:
${steps.replace(/^/gm, '      ')}
`));
  return runtime;
}

const apiCalls = () => server.arrivals.filter((a) => a.url.startsWith('/api'));
const tokenCalls = () => server.arrivals.filter((a) => !a.url.startsWith('/api'));
const form = (a: Arrival) => Object.fromEntries(new URLSearchParams(a.body.toString()));

describe('bearer and basic', () => {
  it('sends a bearer token and basic credentials', async () => {
    await start('type: bearer\ntoken: t0ken-abc');
    await runtime!.run('call');
    expect(server.arrivals[0].headers.authorization).toBe('Bearer t0ken-abc');
    await runtime!.stop();
    await start('type: basic\nusername: ada\npassword: "pa:ss"');
    await runtime!.run('call');
    expect(server.arrivals[1].headers.authorization).toBe(`Basic ${Buffer.from('ada:pa:ss').toString('base64')}`);
  });

  it('never overwrites an Authorization header the request already carries', async () => {
    await start('type: bearer\ntoken: connector-token', `- rest:
    connector: api
    path: /api/me
    headers: {authorization: vars.callerAuth}`);
    await runtime!.run('call', null, { callerAuth: 'Bearer caller-token' });
    expect(server.arrivals[0].headers.authorization).toBe('Bearer caller-token');
  });

  it('fails to start when the scheme misses a setting it needs', async () => {
    await expect(start('type: bearer')).rejects.toThrow('connectors.api.auth.token: required with auth type bearer');
    await expect(start('type: oauth2\ntokenURL: https://auth.example/token')).rejects.toThrow(
      'connectors.api.auth.clientID: required with auth type oauth2; connectors.api.auth.clientSecret: required with auth type oauth2',
    );
  });
});

describe('oauth2 client credentials', () => {
  /** A token endpoint that takes client credentials in a Basic header (or, if `formOnly`, in the form). */
  function tokenEndpoint(options: { expiresIn?: number; formOnly?: boolean } = {}): void {
    let minted = 0;
    server.handle((req, res, a) => {
      if (req.url?.startsWith('/api')) return json(res, 200, { ok: true });
      const basic = `Basic ${Buffer.from(`my-client:${CLIENT_SECRET}`).toString('base64')}`;
      const fields = form(a);
      const ok = options.formOnly ? fields.client_id === 'my-client' && fields.client_secret === CLIENT_SECRET : req.headers.authorization === basic;
      if (!ok || fields.grant_type !== 'client_credentials') return json(res, 401, { error: 'invalid_client', error_description: 'Client authentication failed' });
      json(res, 200, { access_token: `tok-${++minted}`, token_type: 'bearer', expires_in: options.expiresIn ?? 3600 });
    });
  }
  const oauth = (extra = '') => `type: oauth2
tokenURL: ${server.url}/oauth/token
clientID: my-client
clientSecret: ${CLIENT_SECRET}
scopes: [orders.read, orders.write]${extra}`;

  it('mints one token for many concurrent requests and sends it as a bearer token', async () => {
    tokenEndpoint();
    await start(oauth());
    const traced: unknown[] = [];
    runtime!.traces.add({ snapshots: true, emit: (e) => traced.push(e) });
    const results = await Promise.all(Array.from({ length: 20 }, () => runtime!.run('call')));
    expect(results.every((r) => r.outcome === 'completed')).toBe(true);
    expect(tokenCalls()).toHaveLength(1);
    expect(form(tokenCalls()[0])).toEqual({ grant_type: 'client_credentials', scope: 'orders.read orders.write' });
    expect(apiCalls().map((a) => a.headers.authorization)).toEqual(Array(20).fill('Bearer tok-1'));
    // Neither the minted token nor the client secret reaches logs or traces.
    for (const record of [logs, traced]) {
      expect(JSON.stringify(record)).not.toContain('tok-1');
      expect(JSON.stringify(record)).not.toContain(CLIENT_SECRET);
    }
  });

  it('mints a new token once the old one expires', async () => {
    tokenEndpoint({ expiresIn: 1 });
    await start(oauth());
    await runtime!.run('call');
    await runtime!.run('call');
    expect(tokenCalls()).toHaveLength(1);
    // The token's second passes on the clock the cache reads; the HTTP on 127.0.0.1 stays real.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      vi.setSystemTime(Date.now() + 1000);
      await runtime!.run('call');
    } finally {
      vi.useRealTimers();
    }
    expect(tokenCalls()).toHaveLength(2);
    expect(apiCalls().map((a) => a.headers.authorization)).toEqual(['Bearer tok-1', 'Bearer tok-1', 'Bearer tok-2']);
  });

  it('falls back to credentials in the form when the endpoint refuses the Basic header, and keeps that style', async () => {
    tokenEndpoint({ formOnly: true, expiresIn: 1 });
    await start(oauth());
    expect((await runtime!.run('call')).outcome).toBe('completed');
    expect(tokenCalls()).toHaveLength(2);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      vi.setSystemTime(Date.now() + 1000);
      await runtime!.run('call');
    } finally {
      vi.useRealTimers();
    }
    expect(tokenCalls()).toHaveLength(3);
    expect(form(tokenCalls()[2]).client_id).toBe('my-client');
  });

  it('reports a 401 from the token endpoint clearly, without the secret, and calls no API', async () => {
    server.handle((_req, res) => json(res, 401, { error: 'invalid_client', error_description: 'Client authentication failed' }));
    await start(oauth());
    const result = await runtime!.run('call');
    expect(result.outcome).toBe('failed');
    expect(result.error?.message).toBe(
      `oauth2: the token endpoint ${server.url}/oauth/token refused the client credentials (401: invalid_client: Client authentication failed); check clientID "my-client" and clientSecret`,
    );
    expect(apiCalls()).toHaveLength(0);
    expect(JSON.stringify(logs)).not.toContain(CLIENT_SECRET);
  });

  it('drops a token the API refuses, so the next request mints a fresh one', async () => {
    let minted = 0;
    let refuse = false;
    server.handle((req, res) => {
      if (!req.url?.startsWith('/api')) return json(res, 200, { access_token: `tok-${++minted}`, expires_in: 3600 });
      json(res, refuse ? 401 : 200, { auth: req.headers.authorization });
    });
    await start(oauth(), '- rest: {connector: api, path: /api/orders, failOnError: false}');
    await runtime!.run('call');
    refuse = true;
    expect((await runtime!.run('call')).message.vars.statusCode).toBe(401);
    refuse = false;
    const result = await runtime!.run('call');
    expect(result.message.body).toEqual({ auth: 'Bearer tok-2' });
    expect(tokenCalls()).toHaveLength(2);
  });

  it('mints nothing for a request carrying its own Authorization', async () => {
    tokenEndpoint();
    await start(oauth(), '- rest: {connector: api, path: /api/me, headers: {Authorization: \'"Bearer mine"\'}}');
    await runtime!.run('call');
    expect(tokenCalls()).toHaveLength(0);
  });
});

describe('cloud', () => {
  let metadata: RecordingServer;
  const key = new TextEncoder().encode('metadata-test-key-metadata-test-key');
  beforeAll(async () => {
    metadata = await startRecordingServer(async (req, res) => {
      const url = new URL(req.url ?? '/', 'http://metadata');
      const flavor = { 'metadata-flavor': 'Google' };
      if (req.headers['metadata-flavor'] !== 'Google') return json(res, 403, { error: 'missing Metadata-Flavor' }, flavor);
      if (url.pathname === '/computeMetadata/v1/instance/service-accounts/default/identity') {
        const jwt = await new SignJWT({ aud: url.searchParams.get('audience') ?? '' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(key);
        res.writeHead(200, { 'content-type': 'text/html', ...flavor }).end(jwt);
        return;
      }
      if (url.pathname === '/computeMetadata/v1/instance/service-accounts/default/token') {
        return json(res, 200, { access_token: `ya29.access-${url.searchParams.get('scopes') ?? 'default'}`, expires_in: 3599, token_type: 'Bearer' }, flavor);
      }
      json(res, 404, {}, flavor);
    });
  });
  afterAll(() => metadata.close());
  afterEach(() => metadata.reset());

  it('sends an identity token for the base URL origin, minted once by the metadata server', async () => {
    process.env.GCE_METADATA_HOST = `127.0.0.1:${metadata.port}`;
    await start('type: cloud');
    await Promise.all([runtime!.run('call'), runtime!.run('call'), runtime!.run('call')]);
    expect(metadata.arrivals).toHaveLength(1);
    const asked = new URL(metadata.arrivals[0].url, 'http://x');
    expect(asked.pathname).toBe('/computeMetadata/v1/instance/service-accounts/default/identity');
    expect(asked.searchParams.get('audience')).toBe(server.url);
    expect(metadata.arrivals[0].headers['metadata-flavor']).toBe('Google');
    const sent = apiCalls()[0].headers.authorization!;
    expect(sent).toMatch(/^Bearer ey/);
    expect(JSON.parse(Buffer.from(sent.split('.')[1], 'base64url').toString()).aud).toBe(server.url);
  });

  it('sends an access token with the requested scopes', async () => {
    process.env.GCE_METADATA_HOST = `127.0.0.1:${metadata.port}`;
    await start('type: cloud\ncloudToken: access\ncloudScopes: [https://www.googleapis.com/auth/cloud-platform]');
    await runtime!.run('call');
    expect(apiCalls()[0].headers.authorization).toBe('Bearer ya29.access-https://www.googleapis.com/auth/cloud-platform');
  });

  it('uses a given audience', async () => {
    process.env.GCE_METADATA_HOST = `127.0.0.1:${metadata.port}`;
    await start('type: cloud\ncloudAudience: https://orders.internal');
    await runtime!.run('call');
    expect(new URL(metadata.arrivals[0].url, 'http://x').searchParams.get('audience')).toBe('https://orders.internal');
  });

  it('fails the first request saying no metadata server is reachable elsewhere', async () => {
    process.env.GCE_METADATA_HOST = '127.0.0.1:1';
    await start('type: cloud');
    const result = await runtime!.run('call');
    expect(result.outcome).toBe('failed');
    expect(result.error?.message).toMatch(/^cloud auth: no instance metadata server is reachable at 127\.0\.0\.1:1 .*auth type cloud works only on a cloud instance/);
    expect(apiCalls()).toHaveLength(0);
  });

  it('refuses a server that does not answer as a metadata server', async () => {
    process.env.GCE_METADATA_HOST = `127.0.0.1:${server.port}`;
    server.handle((_req, res) => json(res, 200, { not: 'metadata' }));
    await start('type: cloud');
    const result = await runtime!.run('call');
    expect(result.error?.message).toContain('answered without "Metadata-Flavor: Google"');
  });
});
