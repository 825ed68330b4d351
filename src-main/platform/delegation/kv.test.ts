import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform, testStore } from '../testing/platform-harness.ts';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform({ features: { kv: { maxValueBytes: 1024 } } });
});
afterAll(() => platform.close());

const entry = (ns: string, key: string): string => `/v1/kv/${ns}/entry?key=${encodeURIComponent(key)}`;
const put = (ns: string, key: string, body: Buffer | string, version?: number) =>
  platform.call('PUT', entry(ns, key), { body, headers: version === undefined ? {} : { 'x-object-version': String(version) } });

describe('KV entries (§3.5 state table over HTTP)', () => {
  it('creates an absent entry with version 0 and answers the new version', async () => {
    const created = await put('user', 'orders/42', 'first', 0);
    expect(created.status).toBe(201);
    const version = Number(created.headers.get('x-object-version'));
    expect(version).toBeGreaterThan(0);
    const read = await platform.call('GET', entry('user', 'orders/42'));
    expect(read.status).toBe(200);
    expect(read.text).toBe('first');
    expect(read.headers.get('x-object-version')).toBe(String(version));
  });

  it('treats a missing X-Object-Version as 0: create-only', async () => {
    expect((await put('user', 'no-header', 'a')).status).toBe(201);
    const again = await put('user', 'no-header', 'b');
    expect(again.status).toBe(409);
    expect(again.code).toBe('version_conflict');
  });

  it('refuses version 0 on a present entry with 409 and leaves it unchanged', async () => {
    await put('user', 'create-only', 'original', 0);
    const conflict = await put('user', 'create-only', 'overwrite', 0);
    expect(conflict.status).toBe(409);
    expect(conflict.message).toMatch(/already exists at version \d+/);
    expect((await platform.call('GET', entry('user', 'create-only'))).text).toBe('original');
  });

  it('replaces a present entry when the positive version matches, with a higher version', async () => {
    const v1 = Number((await put('user', 'cas', 'one', 0)).headers.get('x-object-version'));
    const updated = await put('user', 'cas', 'two', v1);
    expect(updated.status).toBe(200);
    const v2 = Number(updated.headers.get('x-object-version'));
    expect(v2).toBeGreaterThan(v1);
    expect((await platform.call('GET', entry('user', 'cas'))).text).toBe('two');
  });

  it('refuses a stale positive version with 409 and leaves the entry unchanged', async () => {
    const v1 = Number((await put('user', 'stale', 'one', 0)).headers.get('x-object-version'));
    await put('user', 'stale', 'two', v1);
    const stale = await put('user', 'stale', 'three', v1);
    expect(stale.status).toBe(409);
    expect((await platform.call('GET', entry('user', 'stale'))).text).toBe('two');
  });

  it('refuses a positive version on an absent entry with 409 (never 404)', async () => {
    const res = await put('user', 'never-written', 'x', 7);
    expect(res.status).toBe(409);
    expect(res.message).toMatch(/does not exist/);
  });

  it('deletes unconditionally with version 0 or absent', async () => {
    await put('user', 'del-0', 'x', 0);
    expect((await platform.call('DELETE', entry('user', 'del-0'), { headers: { 'x-object-version': '0' } })).status).toBe(204);
    await put('user', 'del-none', 'x', 0);
    expect((await platform.call('DELETE', entry('user', 'del-none'))).status).toBe(204);
    expect((await platform.call('GET', entry('user', 'del-none'))).status).toBe(404);
  });

  it('deletes with a matching positive version and refuses a different one with 409', async () => {
    const v = Number((await put('user', 'del-v', 'x', 0)).headers.get('x-object-version'));
    const refused = await platform.call('DELETE', entry('user', 'del-v'), { headers: { 'x-object-version': String(v + 1000) } });
    expect(refused.status).toBe(409);
    expect((await platform.call('GET', entry('user', 'del-v'))).status).toBe(200);
    expect((await platform.call('DELETE', entry('user', 'del-v'), { headers: { 'x-object-version': String(v) } })).status).toBe(204);
  });

  it('answers 404 with an error body on a read miss and on deleting an absent entry', async () => {
    const miss = await platform.call('GET', entry('user', 'missing'));
    expect(miss.status).toBe(404);
    expect(miss.code).toBe('entry_not_found');
    const gone = await platform.call('DELETE', entry('user', 'missing'));
    expect(gone.status).toBe(404);
  });

  it('never reissues a version after delete and recreate, so a stale writer gets 409', async () => {
    const v1 = Number((await put('user', 'aba', 'one', 0)).headers.get('x-object-version'));
    await platform.call('DELETE', entry('user', 'aba'));
    const v2 = Number((await put('user', 'aba', 'two', 0)).headers.get('x-object-version'));
    expect(v2).toBeGreaterThan(v1);
    expect((await put('user', 'aba', 'stale writer', v1)).status).toBe(409);
  });

  it('stores opaque bytes unchanged', async () => {
    const bytes = Buffer.from([0, 255, 1, 254, 0x0a, 0x0d, 0xc3, 0x28]);
    await put('user', 'binary', bytes, 0);
    const read = await platform.call('GET', entry('user', 'binary'));
    expect(read.headers.get('content-type')).toBe('application/octet-stream');
    expect(read.bytes.equals(bytes)).toBe(true);
  });

  it('routes any namespace name as given and keeps namespaces apart', async () => {
    await put('tenant-a.cache', 'k', 'a', 0);
    await put('tenant-b.cache', 'k', 'b', 0);
    expect((await platform.call('GET', entry('tenant-a.cache', 'k'))).text).toBe('a');
    expect((await platform.call('GET', entry('tenant-b.cache', 'k'))).text).toBe('b');
  });

  it('keeps keys with slashes, spaces and unicode apart', async () => {
    for (const key of ['a/b/c', 'a/b', 'a%2Fb', 'with space', 'ключ/ü']) await put('user', key, `value of ${key}`, 0);
    for (const key of ['a/b/c', 'a/b', 'a%2Fb', 'with space', 'ключ/ü']) {
      expect((await platform.call('GET', entry('user', key))).text).toBe(`value of ${key}`);
    }
  });

  it('refuses a value above kv.maxValueBytes with 413 value_too_large naming the limit', async () => {
    const res = await put('user', 'big', Buffer.alloc(1025), 0);
    expect(res.status).toBe(413);
    expect(res.code).toBe('value_too_large');
    expect(res.message).toContain('kv.maxValueBytes (1024 bytes)');
    expect((await platform.call('GET', entry('user', 'big'))).status).toBe(404);
    expect((await put('user', 'just-fits', Buffer.alloc(1024), 0)).status).toBe(201);
  });

  it('refuses a missing key with 400 naming the parameter', async () => {
    const res = await platform.call('GET', '/v1/kv/user/entry');
    expect(res.status).toBe(400);
    expect(res.message).toContain('"key"');
  });

  it('refuses a malformed X-Object-Version with 400', async () => {
    const res = await put('user', 'bad-version', 'x', -1);
    expect(res.status).toBe(400);
    expect(res.code).toBe('invalid_version');
  });

  it('reads what was last written however often it was read before: every write, refusal and delete', async () => {
    const read = async () => {
      const res = await platform.call('GET', entry('user', 'read-often'));
      return res.status === 200 ? res.text : res.status;
    };
    const v1 = Number((await put('user', 'read-often', 'one', 0)).headers.get('x-object-version'));
    for (let i = 0; i < 3; i++) expect(await read()).toBe('one');
    // Two writers of one version in one turn: the first to reach the server wins, the other is
    // refused, and the next read sees the winner. Which one arrives first is the network's choice.
    const writes = await Promise.all(['two', 'lost'].map(async (value) => ({ value, res: await put('user', 'read-often', value, v1) })));
    expect(writes.map((w) => w.res.status).sort()).toEqual([200, 409]);
    const won = writes.find((w) => w.res.status === 200)!;
    expect(await read()).toBe(won.value);
    const v2 = Number(won.res.headers.get('x-object-version'));
    expect((await platform.call('DELETE', entry('user', 'read-often'), { headers: { 'x-object-version': String(v2 + 1) } })).status).toBe(409);
    expect(await read()).toBe(won.value);
    expect((await platform.call('DELETE', entry('user', 'read-often'), { headers: { 'x-object-version': String(v2) } })).status).toBe(204);
    expect(await read()).toBe(404);
    expect((await put('user', 'read-often', 'three', 0)).status).toBe(201);
    expect(await read()).toBe('three');
  });
});

// The at-rest checks read the SQLite data directory; postgres-store.test.ts checks the PostgreSQL rows.
describe.skipIf(testStore() !== 'sqlite')('secret and volatile namespaces (SQLite files)', () => {
  it('encrypts *_secrets values at rest: the plaintext appears in no file of the data directory', async () => {
    const secret = 'hunter2-very-secret-value-8c1f';
    await put('user_secrets', 'db/password', secret, 0);
    await put('user', 'plain-marker', 'plain-marker-value-77e0', 0);
    expect((await platform.call('GET', entry('user_secrets', 'db/password'))).text).toBe(secret);
    const files = readdirSync(platform.dataDir).map((f) => readFileSync(join(platform.dataDir, f)));
    expect(files.some((f) => f.includes('plain-marker-value-77e0'))).toBe(true); // the check can see plaintext
    expect(files.some((f) => f.includes(secret))).toBe(false);
  });

  it('keeps the secret key in a 0600 file outside the database', () => {
    const keyFile = join(platform.dataDir, 'secret-store.key');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(statSync(keyFile).size).toBe(32);
  });

  it('keeps *_volatile entries out of the database with the same version rules', async () => {
    await put('user_volatile', 'session', 'volatile-value-3f9a', 0);
    expect((await put('user_volatile', 'session', 'again', 0)).status).toBe(409);
    expect((await platform.call('GET', entry('user_volatile', 'session'))).text).toBe('volatile-value-3f9a');
    const files = readdirSync(platform.dataDir).map((f) => readFileSync(join(platform.dataDir, f)));
    expect(files.some((f) => f.includes('volatile-value-3f9a'))).toBe(false);
  });
});
