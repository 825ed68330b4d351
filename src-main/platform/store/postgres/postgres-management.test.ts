import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatformServer, type PlatformServer } from '../../server.ts';
import { httpCaller, testDatabaseUrl, type Call } from '../../testing/platform-harness.ts';
import { postgresMigrations } from './postgres-migrations.ts';

const adminUrl = process.env.PLATFORM_TEST_POSTGRES_URL;
const SKIP_REASON = 'skipped: PLATFORM_TEST_POSTGRES_URL is not set; run `bash .ci/postgres.sh with-server npx vitest run src-main/platform/store/postgres`';

const definition = `env:
  REGION: {required: true}
  DB_PASSWORD: {required: true, secret: true}
flows:
  ping: {steps: []}
`;

/**
 * Management on PostgreSQL as a cluster runs it: two replicas with their own data directories
 * (nothing shared but the database and the secret key), each write sent to one replica and read
 * or used through the other.
 */
describe.skipIf(!adminUrl)(`management across two platform replicas on one PostgreSQL database${adminUrl ? '' : ` (${SKIP_REASON})`}`, () => {
  const dirs = [mkdtempSync(join(tmpdir(), 'flow-mgmt-a-')), mkdtempSync(join(tmpdir(), 'flow-mgmt-b-'))];
  let storeUrl: string;
  let a: PlatformServer;
  let b: PlatformServer;
  let callA: Call;
  let callB: Call;

  beforeAll(async () => {
    storeUrl = await testDatabaseUrl(dirs[0]);
    const secretKey = randomBytes(32);
    a = await startPlatformServer({ dataDir: dirs[0], store: storeUrl, token: 'mgmt', secretKey });
    b = await startPlatformServer({ dataDir: dirs[1], store: storeUrl, token: 'mgmt', secretKey });
    callA = httpCaller(a.url, a.token);
    callB = httpCaller(b.url, b.token);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${new URL(storeUrl).pathname.slice(1)} WITH (FORCE)`).finally(() => admin.end());
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('deploys through replica B a tag created through replica A, with a secret set through A', async () => {
    expect((await callA('PUT', '/integrations/shop/definitions/shop.yaml', { json: { content: definition } })).status).toBe(201);
    expect((await callA('POST', '/integrations/shop/resources', { json: { kind: 'env', name: 'prod.env', content: 'TAX=0.2\n' } })).status).toBe(201);
    expect((await callA('PUT', '/secrets/shop-db', { json: { value: 's3cret-value' } })).status).toBe(201);
    const tag = await callA('POST', '/integrations/shop/tags', { json: { tag: 'v1' } });
    expect(tag.status).toBe(201);
    const snapshotId = (tag.json as { snapshotId: string }).snapshotId;

    expect(((await callB('GET', '/integrations/shop/tags/v1')).json as { snapshotId: string }).snapshotId).toBe(snapshotId);
    const deployed = await callB('PUT', '/deployments/shop-prod', {
      json: { integration: 'shop', tag: 'v1', bindings: { REGION: 'eu', DB_PASSWORD: { secret: 'shop-db' } } },
    });
    expect(deployed.status, deployed.text).toBe(201);
    expect(deployed.json).toMatchObject({ snapshotId, bindings: { REGION: { value: 'eu' }, DB_PASSWORD: { secret: 'shop-db' } } });

    // Either replica serves the frozen copy and the deployment, and resolves the secret bound through the other.
    expect((await callA('GET', `/snapshots/${snapshotId}/resources/content?kind=env&name=prod.env`)).text).toBe('TAX=0.2\n');
    expect(((await callA('GET', '/deployments')).json as { deployments: Array<{ id: string }> }).deployments.map((d) => d.id)).toEqual(['shop-prod']);
    expect(((await callA('GET', '/secrets')).json as { secrets: Array<{ usedBy: unknown }> }).secrets[0].usedBy).toEqual([{ deployment: 'shop-prod', variable: 'DB_PASSWORD' }]);
    expect((await a.management.deployments.containerEnv('shop-prod')).env).toEqual({ REGION: 'eu', DB_PASSWORD: 's3cret-value' });
    expect((await b.management.deployments.containerEnv('shop-prod')).env).toEqual({ REGION: 'eu', DB_PASSWORD: 's3cret-value' });
  });

  it('keeps a tag frozen when the working copy changes through the other replica', async () => {
    const [resource] = ((await callB('GET', '/integrations/shop/resources')).json as { resources: Array<{ id: string; version: number }> }).resources;
    const updated = await callB('PUT', `/integrations/shop/resources/${resource.id}`, { json: { content: 'TAX=0.3\n' }, headers: { 'x-object-version': String(resource.version) } });
    expect(updated.status).toBe(200);
    // The version A read is stale now that B wrote: refused, never overwritten.
    const stale = await callA('PUT', `/integrations/shop/resources/${resource.id}`, { json: { content: 'TAX=0.9\n' }, headers: { 'x-object-version': String(resource.version) } });
    expect(stale.status).toBe(409);
    const v1 = (await callA('GET', '/integrations/shop/tags/v1')).json as { snapshotId: string };
    expect((await callB('GET', `/snapshots/${v1.snapshotId}/resources/content?kind=env&name=prod.env`)).text).toBe('TAX=0.2\n');
    expect((await callA('GET', `/integrations/shop/resources/${resource.id}/content`)).text).toBe('TAX=0.3\n');
  });

  it('lets one of two replicas creating the same tag at once win; the other answers 409', async () => {
    const answers = await Promise.all([callA('POST', '/integrations/shop/tags', { json: { tag: 'v2' } }), callB('POST', '/integrations/shop/tags', { json: { tag: 'v2' } })]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(answers.find((r) => r.status === 409)!.code).toBe('tag_exists');
  });

  it('gives each resource of concurrent creates on both replicas its own place, names unique', async () => {
    const creates = Array.from({ length: 10 }, (_, i) =>
      (i % 2 ? callA : callB)('POST', '/integrations/race/resources', { json: { kind: 'template', name: `t${i % 5}.txt`, content: String(i) } }),
    );
    const statuses = (await Promise.all(creates)).map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 400)).toHaveLength(5);
    const listed = ((await callA('GET', '/integrations/race/resources')).json as { resources: Array<{ name: string }> }).resources;
    expect(listed.map((r) => r.name).sort()).toEqual(['t0.txt', 't1.txt', 't2.txt', 't3.txt', 't4.txt']);
    const bundle = await callB('GET', '/integrations/race/bundle');
    expect(bundle.status).toBe(200);
  });
});

describe.skipIf(!adminUrl)(`upgrading a platform database from before management moved to PostgreSQL${adminUrl ? '' : ` (${SKIP_REASON})`}`, () => {
  it('migrates a schema-1 database to the management tables at start, keeping what it held', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'flow-mgmt-upgrade-'));
    const storeUrl = await testDatabaseUrl(dataDir);
    const db = new pg.Client({ connectionString: storeUrl });
    await db.connect();
    let server: PlatformServer | undefined;
    try {
      // The database as a server of schema 1 left it, with a KV entry.
      await db.query('CREATE TABLE flow_schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
      await db.query(postgresMigrations[0]);
      await db.query('INSERT INTO flow_schema_migrations (version) VALUES (1)');
      await db.query("INSERT INTO kv_entries (namespace, key, value, version, updated_at) VALUES ('orders', 'o-1', 'kept', nextval('object_version'), 0)");

      server = await startPlatformServer({ dataDir, store: storeUrl, token: 'upgrade', secretKey: randomBytes(32) });
      const call = httpCaller(server.url, server.token);
      const { rows } = await db.query<{ version: number }>('SELECT version FROM flow_schema_migrations ORDER BY version');
      expect(rows.map((r) => r.version)).toEqual(postgresMigrations.map((_, i) => i + 1));
      expect((await call('GET', '/v1/kv/orders/entry?key=o-1')).text).toBe('kept');
      expect((await call('PUT', '/integrations/shop/definitions/shop.yaml', { json: { content: definition } })).status).toBe(201);
      expect((await call('POST', '/integrations/shop/tags', { json: { tag: 'v1' } })).status).toBe(201);
    } finally {
      await server?.close();
      await db.end();
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${new URL(storeUrl).pathname.slice(1)} WITH (FORCE)`).finally(() => admin.end());
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
