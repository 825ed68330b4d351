import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startPlatformServer, type PlatformServer } from '../server.ts';
import { httpCaller, type Call } from '../testing/platform-harness.ts';
import { SECRET_OBJECT_FILE } from './secret-values.ts';

/**
 * A double of the Kubernetes API for Secrets, speaking its wire format: the core/v1 paths, Status
 * objects for errors, base64 `data`, a `resourceVersion` that moves on every write and a 409
 * Conflict for a merge patch computed from an older one, 415 for a patch of the wrong type.
 */
class KubernetesDouble {
  secrets = new Map<string, { resourceVersion: string; data: Record<string, string> }>();
  requests: string[] = [];
  private rv = 100;
  server!: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req).then(([code, body]) => {
      res.writeHead(code, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    }));
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** A write by someone else (kubectl, another replica). */
  writeFromOutside(name: string, key: string, value: string): void {
    const s = this.secrets.get(name)!;
    s.data[key] = Buffer.from(value).toString('base64');
    s.resourceVersion = String(++this.rv);
  }

  private status(code: number, reason: string, message: string): [number, unknown] {
    return [code, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code }];
  }

  private resource(ns: string, name: string): unknown {
    const s = this.secrets.get(name)!;
    return { kind: 'Secret', apiVersion: 'v1', metadata: { name, namespace: ns, resourceVersion: s.resourceVersion, uid: `uid-${name}` }, type: 'Opaque', data: { ...s.data } };
  }

  private async handle(req: IncomingMessage): Promise<[number, unknown]> {
    let text = '';
    for await (const chunk of req) text += String(chunk);
    this.requests.push(`${req.method} ${req.url}`);
    if (req.headers.authorization !== 'Bearer k8s-sa-token') return this.status(401, 'Unauthorized', 'Unauthorized');
    const m = /^\/api\/v1\/namespaces\/([^/]+)\/secrets(?:\/([^/?]+))?$/.exec(req.url ?? '');
    if (!m) return this.status(404, 'NotFound', 'the server could not find the requested resource');
    const [, ns, name] = m;
    const body = text ? (JSON.parse(text) as { metadata?: { name?: string; resourceVersion?: string }; data?: Record<string, string | null> }) : {};
    const badBase64 = Object.entries(body.data ?? {}).find(([, v]) => v !== null && Buffer.from(v, 'base64').toString('base64') !== v);
    if (badBase64) return this.status(400, 'BadRequest', `Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 0 (data.${badBase64[0]})`);
    if (req.method === 'GET' && name) {
      return this.secrets.has(name) ? [200, this.resource(ns, name)] : this.status(404, 'NotFound', `secrets "${name}" not found`);
    }
    if (req.method === 'POST' && !name) {
      const created = body.metadata!.name!;
      if (this.secrets.has(created)) return this.status(409, 'AlreadyExists', `secrets "${created}" already exists`);
      this.secrets.set(created, { resourceVersion: String(++this.rv), data: body.data as Record<string, string> });
      return [201, this.resource(ns, created)];
    }
    if (req.method === 'PATCH' && name) {
      if (req.headers['content-type'] !== 'application/merge-patch+json') return this.status(415, 'UnsupportedMediaType', `the body of the request was in an unknown format`);
      const s = this.secrets.get(name);
      if (!s) return this.status(404, 'NotFound', `secrets "${name}" not found`);
      if (body.metadata?.resourceVersion !== undefined && body.metadata.resourceVersion !== s.resourceVersion) {
        return this.status(409, 'Conflict', `Operation cannot be fulfilled on secrets "${name}": the object has been modified; please apply your changes to the latest version and try again`);
      }
      for (const [k, v] of Object.entries(body.data ?? {})) {
        if (v === null) delete s.data[k];
        else s.data[k] = v;
      }
      s.resourceVersion = String(++this.rv);
      return [200, this.resource(ns, name)];
    }
    return this.status(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');
  }
}

const double = new KubernetesDouble();
const VALUE = 'kube-secret-value-1b7e';
let dataDir: string;
let platform: PlatformServer;
let call: Call;
const kubernetes = () => ({ apiServer: double.url, namespace: 'flows', token: 'k8s-sa-token' });
const decoded = (key: string): string | undefined => {
  const v = double.secrets.get('flow-secrets')?.data[key];
  return v === undefined ? undefined : Buffer.from(v, 'base64').toString('utf8');
};

beforeAll(async () => {
  await double.start();
  dataDir = mkdtempSync(join(tmpdir(), 'flow-k8s-secrets-'));
  platform = await startPlatformServer({ dataDir, token: 't', kubernetesSecrets: kubernetes() });
  call = httpCaller(platform.url, platform.token);
});
afterAll(async () => {
  await platform.close();
  double.server.close();
  rmSync(dataDir, { recursive: true, force: true });
});
beforeEach(() => {
  double.requests = [];
});

describe('cluster secrets in the Kubernetes Secret flow-secrets (spec 2 §2.11)', () => {
  it('creates the Secret on the first write and keeps each value as a base64 key of it, nothing on disk', async () => {
    expect((await call('PUT', '/secrets/orders-db', { json: { value: VALUE } })).status).toBe(201);
    expect(double.requests).toEqual(['GET /api/v1/namespaces/flows/secrets/flow-secrets', 'POST /api/v1/namespaces/flows/secrets']);
    expect(decoded('orders-db')).toBe(VALUE);
    expect(existsSync(join(dataDir, SECRET_OBJECT_FILE))).toBe(false);
    const list = await call('GET', '/secrets');
    expect((list.json as { secrets: Array<{ name: string }> }).secrets.map((s) => s.name)).toEqual(['orders-db']);
    expect(list.text).not.toContain(VALUE);
  });

  it('patches the Secret with the resourceVersion it read, and re-reads and retries when someone else changed it', async () => {
    double.writeFromOutside('flow-secrets', 'set-by-kubectl', 'other');
    expect((await call('PUT', '/secrets/api-key', { json: { value: 'key-2' } })).status).toBe(201);
    expect(double.requests).toEqual([
      'PATCH /api/v1/namespaces/flows/secrets/flow-secrets', // 409: computed from an older resourceVersion
      'GET /api/v1/namespaces/flows/secrets/flow-secrets',
      'PATCH /api/v1/namespaces/flows/secrets/flow-secrets',
    ]);
    expect(decoded('api-key')).toBe('key-2');
    expect(decoded('set-by-kubectl')).toBe('other'); // the other writer's change survived
    expect(decoded('orders-db')).toBe(VALUE);
  });

  it('resolves a deployment binding from the Secret, and removes the key on delete', async () => {
    await call('PUT', '/integrations/orders/definitions/orders.yaml', { json: { content: 'env:\n  DB: {required: true, secret: true}\nflows: {}\n' } });
    await call('POST', '/integrations/orders/tags', { json: { tag: 'v1' } });
    expect((await call('PUT', '/deployments/orders', { json: { integration: 'orders', tag: 'v1', bindings: { DB: { secret: 'orders-db' } } } })).status).toBe(201);
    expect((await platform.management.deployments.containerEnv('orders')).env).toEqual({ DB: VALUE });
    expect((await call('DELETE', '/secrets/api-key')).status).toBe(200);
    expect(decoded('api-key')).toBeUndefined();
    expect(double.requests.at(-1)).toBe('PATCH /api/v1/namespaces/flows/secrets/flow-secrets');
  });

  it('reads existing values at start, so a restarted platform resolves bindings', async () => {
    // Restarted: one platform at a time on a data folder (a second one beside it is refused).
    await platform.close();
    platform = await startPlatformServer({ dataDir, token: 't', kubernetesSecrets: kubernetes() });
    expect((await platform.management.deployments.containerEnv('orders')).env).toEqual({ DB: VALUE });
  });

  it('answers 503 naming the Secret, never the value, when the Kubernetes API refuses', async () => {
    const refused = await startPlatformServer({ dataDir: mkdtempSync(join(tmpdir(), 'flow-k8s-refused-')), token: 't', kubernetesSecrets: { ...kubernetes(), token: 'wrong' } }).catch(
      (e: unknown) => e as Error,
    );
    expect((refused as Error).message).toBe('could not read the Kubernetes Secret flows/flow-secrets: the Kubernetes API answered 401 (Unauthorized)');
  });
});
