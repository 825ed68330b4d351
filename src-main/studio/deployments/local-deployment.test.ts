import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatformServer, type PlatformServer } from '../../platform/index.ts';
import { type LogRecord, loadRegistry } from '../../runtime/index.ts';
import { startLocalDeployment, type RunningDeployment } from './local-deployment.ts';

const registry = await loadRegistry();

const SECRET = 'sk-live-4f9c2a77e1d04b7f9a3c';
let dir: string;
let platform: PlatformServer;
let upstream: Server;
let upstreamUrl: string;
const logs: LogRecord[] = [];

const definition = `env:
  LEVEL:
    description: Set at every level, to show which one wins.
    default: from-default
  API_TOKEN:
    required: true
    secret: true
  UPSTREAM_URL:
    required: true
connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
  upstream:
    type: http-client
    baseURL: \${UPSTREAM_URL}
    auth:
      type: bearer
      token: \${API_TOKEN}
flows:
  level:
    source: {type: http, path: '/level/\${LEVEL}', methods: [GET]}
    steps:
      - set: {body: '"ok"'}
  call-upstream:
    source: {type: http, path: /call, methods: [GET]}
    steps:
      - rest: {connector: upstream, path: /whoami}
      - log: {message: '"upstream saw " + body.seen'}
      - set: {body: '{"authorized": body.ok}'}
`;

async function call(method: string, path: string, json?: unknown): Promise<{ status: number; text: string; json: Record<string, unknown> }> {
  const res = await fetch(platform.url + path, {
    method,
    headers: { authorization: `Bearer ${platform.token}`, 'content-type': 'application/json' },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await res.text();
  return { status: res.status, text, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

async function start(id: string): Promise<RunningDeployment> {
  return startLocalDeployment(platform, id, { registry, sinks: [(r) => logs.push(r)], graceMs: 500 });
}

const routeUrl = (d: RunningDeployment, path: string): string => {
  const web = d.runtime.describe().connectors.find((c) => c.name === 'web');
  return `${String(web?.details?.url)}${path}`;
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'flow-deploy-'));
  platform = await startPlatformServer({ dataDir: join(dir, 'data') });
  // The upstream checks the bearer token and echoes what it saw, so the value passes through a flow.
  upstream = createServer((req, res) => {
    const seen = req.headers.authorization ?? '';
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ ok: seen === `Bearer ${SECRET}`, seen }));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;

  await call('PUT', '/integrations/shop/definitions/shop.yaml', { content: definition });
  await call('POST', '/integrations/shop/resources', { kind: 'env', name: 'base.env', content: `LEVEL=from-base\nUPSTREAM_URL=${upstreamUrl}\n` });
  const override = await call('POST', '/integrations/shop/resources', { kind: 'env', name: 'config/override.env', content: 'LEVEL=from-override\n' });
  const v1 = await call('POST', '/integrations/shop/tags', { tag: 'v1' });
  expect(v1.status, v1.text).toBe(201);
  // v2: no env resource sets LEVEL any more, so only the default is beneath a binding.
  await call('PUT', `/integrations/shop/resources/${String(override.json.id)}`, { content: '# nothing here\n' });
  await call('PUT', '/integrations/shop/resources/' + (await resourceId('base.env')), { content: `UPSTREAM_URL=${upstreamUrl}\n` });
  await call('POST', '/integrations/shop/tags', { tag: 'v2' });
  expect((await call('PUT', '/secrets/shop-api-token', { value: SECRET })).status).toBe(201);
});

async function resourceId(name: string): Promise<string> {
  const list = (await call('GET', '/integrations/shop/resources')).json.resources as Array<{ id: string; name: string }>;
  return list.find((r) => r.name === name)!.id;
}

afterAll(async () => {
  await platform.close();
  await new Promise((resolve) => upstream.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('a local deployment: env precedence (spec 2 §4.4)', () => {
  it.each([
    ['a binding wins over env resources and the default', 'v1', { value: 'from-binding' }, 'from-binding'],
    ['an empty binding injects nothing: the last env resource in declared order applies', 'v1', { value: '' }, 'from-override'],
    ['no binding: the env resources apply', 'v1', undefined, 'from-override'],
    ['no binding and no env resource: the declared default applies', 'v2', undefined, 'from-default'],
    ['a binding wins over the default', 'v2', { value: 'from-binding' }, 'from-binding'],
  ])('%s', async (_what, tag, level, expected) => {
    const id = `shop-${tag}-${String(expected)}-${level ? (level.value === '' ? 'empty' : 'bound') : 'unbound'}`;
    const bindings = { API_TOKEN: { secret: 'shop-api-token' }, ...(level ? { LEVEL: level } : {}) };
    const deployed = await call('PUT', `/deployments/${id}`, { integration: 'shop', tag, bindings });
    expect(deployed.status, deployed.text).toBe(201);
    const d = await start(id);
    try {
      expect(d.runtime.definition.envValues.get('LEVEL')).toBe(expected);
      // The runtime serves the route its resolved value names.
      expect((await fetch(routeUrl(d, `/level/${String(expected)}`))).status).toBe(200);
    } finally {
      await d.stop();
    }
  });

  it('carries FLOW_SNAPSHOT_ID: a tag edited after deploy still runs the frozen env', async () => {
    const d = await start('shop-v1-from-override-unbound');
    try {
      expect(d.snapshotId).toBe((await call('GET', '/integrations/shop/tags/v1')).json.snapshotId);
      expect(d.runtime.definition.envValues.get('UPSTREAM_URL')).toBe(upstreamUrl);
    } finally {
      await d.stop();
    }
  });
});

describe('a local deployment: secrets', () => {
  it('injects the secret into the runtime, and the value appears in no file of the data directory and no log', async () => {
    await call('PUT', '/deployments/shop-secret', { integration: 'shop', tag: 'v1', bindings: { API_TOKEN: { secret: 'shop-api-token' } } });
    const d = await start('shop-secret');
    let answer: unknown;
    try {
      answer = await (await fetch(routeUrl(d, '/call'))).json();
    } finally {
      await d.stop();
    }
    expect(answer).toEqual({ authorized: true });

    // The value passed through a flow: the log line carries it masked, not in plain text.
    const logText = JSON.stringify(logs);
    expect(logText).toContain('upstream saw Bearer [redacted]');
    expect(logText).not.toContain(SECRET);
    expect(JSON.stringify((await platform.logs.list({ limit: 10_000 })))).not.toContain(SECRET);
    expect(JSON.stringify((await platform.traces.list({ limit: 10_000 })))).not.toContain(SECRET);
    for (const path of ['/secrets', '/deployments', '/deployments/shop-secret']) expect((await call('GET', path)).text).not.toContain(SECRET);

    const dataDir = join(dir, 'data');
    const files = readdirSync(dataDir, { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
    expect(files.map((f) => f.name)).toEqual(expect.arrayContaining(['platform.db', 'flow-secrets']));
    for (const f of files) expect(readFileSync(join(f.parentPath, f.name)).includes(SECRET), f.name).toBe(false);
  });

  it('fails to start a deployment whose secret was deleted since (forced), naming the secret', async () => {
    await call('PUT', '/secrets/doomed-token', { value: 'doomed-value-123' });
    await call('PUT', '/deployments/shop-doomed', { integration: 'shop', tag: 'v1', bindings: { API_TOKEN: { secret: 'doomed-token' } } });
    expect((await call('DELETE', '/secrets/doomed-token?force=true')).json.brokenDeployments).toEqual([{ deployment: 'shop-doomed', variable: 'API_TOKEN' }]);
    await expect(start('shop-doomed')).rejects.toThrow(/API_TOKEN to the secret "doomed-token", which no longer exists/);
  });
});
