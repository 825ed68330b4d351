import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { startTestPlatform, testDatabaseUrl, testStore, type TestPlatform } from '../testing/platform-harness.ts';
import { SECRET_OBJECT_FILE } from './secret-values.ts';
import { SECRET_OBJECT_KEY_FILE } from './secret-key-protection.ts';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
  await platform.call('PUT', '/integrations/billing/definitions/billing.yaml', {
    json: { content: 'env:\n  DB_PASSWORD: {required: true, secret: true}\n  API_KEY: {secret: true}\nflows: {}\n' },
  });
  await platform.call('POST', '/integrations/billing/tags', { json: { tag: 'v1' } });
});
afterAll(() => platform.close());

const VALUE = 'correct-horse-battery-staple-7f3a';
const put = (name: string, value: unknown, actor?: string) => platform.call('PUT', `/secrets/${name}`, { json: { value }, headers: actor ? { 'x-flow-actor': actor } : {} });
const deploy = (id: string, bindings: unknown) => platform.call('PUT', `/deployments/${id}`, { json: { integration: 'billing', tag: 'v1', bindings } });

describe('cluster secrets (spec 2 §2.11, §4.2)', () => {
  it('creates, then overwrites, a secret; the list has names and timestamps and never a value', async () => {
    const created = await put('billing-db', VALUE, 'ana');
    expect(created.status).toBe(201);
    expect((await put('billing-db', `${VALUE}-rotated`)).status).toBe(200);
    const list = await platform.call('GET', '/secrets');
    expect(list.json).toEqual({
      secrets: [{ name: 'billing-db', createdAt: expect.any(String), updatedAt: expect.any(String), updatedBy: 'local', usedBy: [] }],
    });
    for (const answer of [created, list]) expect(answer.text).not.toContain(VALUE);
  });

  it.runIf(testStore() === 'sqlite')('keeps values out of the database: one sealed flow-secrets object, its key in a 0600 file', async () => {
    await put('grep-me', VALUE);
    for (const file of readdirSync(platform.dataDir)) {
      expect(readFileSync(join(platform.dataDir, file)).includes(VALUE), file).toBe(false);
    }
    expect(readdirSync(platform.dataDir)).toContain(SECRET_OBJECT_FILE);
    expect(statSync(join(platform.dataDir, SECRET_OBJECT_KEY_FILE)).mode & 0o777).toBe(0o600);
    expect(statSync(join(platform.dataDir, SECRET_OBJECT_FILE)).mode & 0o777).toBe(0o600);
    expect(await platform.server.management.secrets.reveal('grep-me')).toBe(VALUE);
  });

  it.runIf(testStore() !== 'sqlite')('on PostgreSQL, keeps each value sealed in the shared database, where every replica reads it', async () => {
    await put('grep-me-too', VALUE);
    const client = new pg.Client({ connectionString: await testDatabaseUrl(platform.dataDir) });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string; sealed: Buffer }>('SELECT name, sealed FROM cluster_secret_values');
      expect(rows.map((r) => r.name)).toContain('grep-me-too');
      for (const r of rows) expect(r.sealed.includes(VALUE), r.name).toBe(false);
      const names = await client.query('SELECT * FROM cluster_secrets');
      expect(JSON.stringify(names.rows)).not.toContain(VALUE);
    } finally {
      await client.end();
    }
    expect(readdirSync(platform.dataDir)).not.toContain(SECRET_OBJECT_FILE);
    expect(await platform.server.management.secrets.reveal('grep-me-too')).toBe(VALUE);
  });

  it('refuses a bad name or an empty value without quoting anything back', async () => {
    expect((await put('bad name', VALUE)).code).toBe('invalid_secret_name');
    const empty = await put('empty', '');
    expect(empty.code).toBe('missing_field');
    const wrongType = await put('typed', 42);
    expect(wrongType.status).toBe(400);
  });

  it('refuses to delete a secret a deployment binds, naming the deployment, unless forced', async () => {
    await put('billing-api-key', VALUE);
    expect((await deploy('billing-prod', { DB_PASSWORD: { secret: 'billing-db' }, API_KEY: { secret: 'billing-api-key' } })).status).toBe(201);
    expect(((await platform.call('GET', '/secrets')).json as { secrets: Array<{ name: string; usedBy: unknown[] }> }).secrets).toContainEqual(
      expect.objectContaining({ name: 'billing-db', usedBy: [{ deployment: 'billing-prod', variable: 'DB_PASSWORD' }] }),
    );

    const refused = await platform.call('DELETE', '/secrets/billing-api-key');
    expect(refused.status).toBe(409);
    expect(refused.code).toBe('secret_in_use');
    expect(refused.message).toContain('billing-prod');
    expect(refused.message).toContain('API_KEY');

    const forced = await platform.call('DELETE', '/secrets/billing-api-key?force=true');
    expect(forced.status).toBe(200);
    expect(forced.json).toEqual({ deleted: 'billing-api-key', brokenDeployments: [{ deployment: 'billing-prod', variable: 'API_KEY' }] });
    await expect(platform.server.management.deployments.containerEnv('billing-prod')).rejects.toThrow(/API_KEY to the secret "billing-api-key", which no longer exists/);
  });

  it('deletes an unbound secret outright, and answers 404 for one that does not exist', async () => {
    await put('unused', VALUE);
    expect((await platform.call('DELETE', '/secrets/unused')).json).toEqual({ deleted: 'unused', brokenDeployments: [] });
    expect((await platform.call('DELETE', '/secrets/unused')).code).toBe('secret_not_found');
    expect((await platform.call('DELETE', '/secrets/unused?force=maybe')).code).toBe('invalid_parameter');
  });

  it('keeps secrets across a restart of the platform', async () => {
    // Restarted: one platform at a time on its data folder (a second one beside it is refused).
    const first = platform;
    await first.server.close();
    const again = await startTestPlatform({ dataDir: first.dataDir, port: 0 });
    // The tests below go on with the restarted one; closing it also removes the first's folder.
    platform = { ...again, close: () => again.close().then(() => first.close()) };
    expect(await again.server.management.secrets.reveal('billing-db')).toBe(`${VALUE}-rotated`);
  });
});

describe('deploy-time binding (spec 2 §4.3, §4.4, §7)', () => {
  it('records secret bindings by name, never by value', async () => {
    const res = await deploy('billing-stage', { DB_PASSWORD: { secret: 'billing-db' }, API_KEY: '' });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ integration: 'billing', tag: 'v1', bindings: { DB_PASSWORD: { secret: 'billing-db' }, API_KEY: { value: '' } } });
    expect(res.text).not.toContain(VALUE);
    expect((await platform.call('GET', '/deployments/billing-stage')).text).not.toContain(VALUE);
  });

  it('rejects up front a required variable with neither a binding nor a frozen env resource', async () => {
    const res = await deploy('billing-missing', {});
    expect(res.status).toBe(400);
    expect(res.code).toBe('required_variable_unbound');
    expect(res.message).toContain('DB_PASSWORD');
    const empty = await deploy('billing-missing', { DB_PASSWORD: { value: '' } });
    expect(empty.code).toBe('required_variable_unbound');
    expect((await platform.call('GET', '/deployments/billing-missing')).status).toBe(404);
  });

  it('rejects a binding to a secret that does not exist', async () => {
    const res = await deploy('billing-typo', { DB_PASSWORD: { secret: 'billing-dbb' } });
    expect(res.code).toBe('unknown_secret');
    expect(res.message).toContain('billing-dbb');
  });

  it('rejects a literal for a secret variable, a binding of an undeclared variable, and a malformed binding', async () => {
    const literal = await deploy('billing-bad', { DB_PASSWORD: { value: VALUE } });
    expect(literal.code).toBe('secret_needs_secret_binding');
    expect(literal.text).not.toContain(VALUE);
    expect((await deploy('billing-bad', { DB_PASSWORD: { secret: 'billing-db' }, NOPE: 'x' })).code).toBe('unknown_variable');
    expect((await deploy('billing-bad', { DB_PASSWORD: { secret: 'billing-db', value: 'x' } })).code).toBe('invalid_binding');
  });

  it('rolls a deployment out to new bindings, and deletes it', async () => {
    expect((await deploy('billing-stage', { DB_PASSWORD: { secret: 'billing-db' } })).status).toBe(200);
    expect((await platform.call('DELETE', '/deployments/billing-stage')).status).toBe(204);
    expect((await platform.call('GET', '/deployments')).json).toEqual({ deployments: [expect.objectContaining({ id: 'billing-prod' })] });
  });
});
