import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from './testing/platform-harness.ts';

/** Hand-made hostile input against the platform server over real HTTP (issue 18). */
let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.close());

describe('query parameters that are not valid UTF-8 (item 3)', () => {
  it('refuses ?key=%FF and ?key=%FE with 400 instead of addressing one U+FFFD entry', async () => {
    const put = await platform.call('PUT', '/v1/kv/user/entry?key=%FF', { body: 'one', headers: { 'x-object-version': '0' } });
    expect(put.status).toBe(400);
    expect(put.code).toBe('invalid_query');
    expect(put.message).toContain('"key"');
    expect(put.message).toContain('UTF-8');
    const get = await platform.call('GET', '/v1/kv/user/entry?key=%FE');
    expect(get.status).toBe(400);
    expect(get.code).toBe('invalid_query');
    // The real U+FFFD, percent-encoded as UTF-8, is a key like any other.
    expect((await platform.call('PUT', `/v1/kv/user/entry?key=${encodeURIComponent('\uFFFD')}`, { body: 'x' })).status).toBe(201);
    expect((await platform.call('GET', `/v1/kv/user/entry?key=${encodeURIComponent('\uFFFD')}`)).text).toBe('x');
  });

  it('refuses invalid UTF-8 in name and userId, and malformed percent-encoding', async () => {
    const memory = await platform.call('PUT', '/v1/agent-memory/a/users/u/memories?name=%C3%28', { json: { x: 1 } });
    expect(memory.status).toBe(400);
    expect(memory.message).toContain('"name"');
    const turns = await platform.call('POST', '/v1/agent-memory/a/threads/t/turns?userId=%ED%A0%80', { json: { turns: [] } });
    expect(turns.status).toBe(400);
    expect(turns.message).toContain('"userId"');
    const resource = await platform.call('GET', '/v1/resources/content?kind=env&name=%ZZ');
    expect(resource.status).toBe(400);
    expect(resource.message).toContain('percent-encoding');
  });

  it('still decodes + as a space and valid multi-byte UTF-8', async () => {
    expect((await platform.call('PUT', '/v1/kv/user/entry?key=a+b%20%C3%A9', { body: 'v' })).status).toBe(201);
    expect((await platform.call('GET', `/v1/kv/user/entry?key=${encodeURIComponent('a b é')}`)).text).toBe('v');
  });
});

describe('X-Object-Version accepts every int64 (item 7, spec 1 §2.4)', () => {
  it('accepts 9223372036854775807 as a version (409: no entry is at it), refuses one past it with 400', async () => {
    await platform.call('PUT', '/v1/kv/user/entry?key=int64', { body: 'one', headers: { 'x-object-version': '0' } });
    for (const version of ['9223372036854775807', '12345678901234567', '0000000000000000001']) {
      const res = await platform.call('PUT', '/v1/kv/user/entry?key=int64', { body: 'two', headers: { 'x-object-version': version } });
      expect(res.status, version).toBe(409);
      expect(res.code).toBe('version_conflict');
    }
    for (const version of ['9223372036854775808', '99999999999999999999', '-1', '1.5', 'abc', '1 2']) {
      const res = await platform.call('PUT', '/v1/kv/user/entry?key=int64', { body: 'two', headers: { 'x-object-version': version } });
      expect(res.status, version).toBe(400);
      expect(res.code).toBe('invalid_version');
    }
    expect((await platform.call('GET', '/v1/kv/user/entry?key=int64')).text).toBe('one');
  });

  it('answers an empty header with 400, so a conditional DELETE never becomes unconditional', async () => {
    await platform.call('PUT', '/v1/kv/user/entry?key=empty-version', { body: 'kept' });
    const del = await platform.call('DELETE', '/v1/kv/user/entry?key=empty-version', { headers: { 'x-object-version': '' } });
    expect(del.status).toBe(400);
    expect(del.code).toBe('invalid_version');
    expect(del.message).toContain('empty');
    expect((await platform.call('GET', '/v1/kv/user/entry?key=empty-version')).text).toBe('kept');
    const memory = await platform.call('DELETE', '/v1/agent-memory/a/users/u/memories?name=m', { headers: { 'x-object-version': '' } });
    expect(memory.status).toBe(400);
  });
});
