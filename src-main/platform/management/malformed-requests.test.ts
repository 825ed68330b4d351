import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../testing/platform-harness.ts';

let platform: TestPlatform;
let resourceId: string;
beforeAll(async () => {
  platform = await startTestPlatform();
  const created = await platform.call('POST', '/integrations/shop/resources', { json: { kind: 'env', name: 'base.env', content: 'A=1' } });
  resourceId = (created.json as { id: string }).id;
});
afterAll(() => platform.close());

const ID_RULE = '1 to 128 letters, digits, ".", "_" or "-", starting with a letter or digit';

describe('a malformed management request is refused with a 400 naming the field', () => {
  const cases: Array<[string, string, () => string, unknown, string, string]> = [
    // what, method, path, body, code, message
    ['a tag of the wrong type', 'PUT', () => '/deployments/shop-prod', { integration: 'shop', tag: 7 }, 'invalid_field', `"tag" must be ${ID_RULE}, got 7`],
    ['a deployment without its integration', 'PUT', () => '/deployments/shop-prod', { tag: 'v1' }, 'missing_field', `the request body needs "integration": ${ID_RULE}`],
    ['an integration id that is no id', 'PUT', () => '/deployments/shop-prod', { integration: 'my shop', tag: 'v1' }, 'invalid_name', `"integration" must be ${ID_RULE}, got a string`],
    ['a binding of neither form', 'PUT', () => '/deployments/shop-prod', { integration: 'shop', tag: 'v1', bindings: { DB: { secret: 'db', value: 'x' } } }, 'invalid_binding', '"bindings.DB" must be {"value": "<literal>"} or {"secret": "<secret name>"} (or "" or null to leave it empty), got an object'],
    ['bindings that are not an object', 'PUT', () => '/deployments/shop-prod', { integration: 'shop', tag: 'v1', bindings: 5 }, 'invalid_field', '"bindings" must be a JSON object, got 5'],
    ['a tag without a name', 'POST', () => '/integrations/shop/tags', {}, 'missing_field', `the request body needs "tag": ${ID_RULE}`],
    ['an empty tag name', 'POST', () => '/integrations/shop/tags', { tag: '' }, 'missing_field', `the request body needs "tag": ${ID_RULE}`],
    ['a tag name too long', 'POST', () => '/integrations/shop/tags', { tag: 'v'.repeat(129) }, 'invalid_name', '"tag" is 129 characters long; the limit is 128'],
    ['a tag description too long', 'POST', () => '/integrations/shop/tags', { tag: 'v1', description: 'd'.repeat(2001) }, 'invalid_field', '"description" is 2001 characters long; the limit is 2000'],
    ['a resource name of the wrong type', 'POST', () => '/integrations/shop/resources', { kind: 'env', name: 5, content: '' }, 'invalid_field', '"name" must be a string, got 5'],
    ['a resource without content', 'POST', () => '/integrations/shop/resources', { kind: 'env', name: 'a.env' }, 'missing_field', 'the request body needs "content": a string'],
    ['a resource of an unknown kind', 'POST', () => '/integrations/shop/resources', { kind: 'script', name: 'a.js', content: '' }, 'invalid_field', '"kind" must be one of env, template, got a string'],
    ['an unknown encoding', 'PUT', () => `/integrations/shop/resources/${resourceId}`, { content: '00', encoding: 'hex' }, 'invalid_field', '"encoding" must be one of utf8, base64, got a string'],
    ['a resource rename to a number', 'PUT', () => `/integrations/shop/resources/${resourceId}`, { name: 12 }, 'invalid_field', '"name" must be a string, got 12'],
    ['definition content that is not text', 'PUT', () => '/integrations/shop/definitions/shop.yaml', { content: true }, 'invalid_field', '"content" must be a string, got true'],
    ['a secret without a value', 'PUT', () => '/secrets/db', { other: 'x' }, 'missing_field', 'the request body needs "value": a non-empty string'],
  ];

  it.each(cases)('%s', async (_what, method, path, body, code, message) => {
    const res = await platform.call(method, path(), { json: body });
    expect(res.status).toBe(400);
    expect({ code: res.code, message: res.message }).toEqual({ code, message });
  });

  it('never repeats a secret value sent with the wrong type', async () => {
    const res = await platform.call('PUT', '/secrets/pin', { json: { value: 480_213 } });
    expect(res.status).toBe(400);
    expect(res.code).toBe('invalid_field');
    expect(res.message).toBe('"value" must be a non-empty string');
    expect(res.text).not.toContain('480213');
  });

  it('checks the query parameters of the management routes before anything is read', async () => {
    const forced = await platform.call('DELETE', '/secrets/db?force=');
    expect([forced.status, forced.code, forced.message]).toEqual([400, 'invalid_parameter', 'the query parameter "force" must be one of true, false, got ""']);
    const kind = await platform.call('GET', '/snapshots/snap_none/resources/content?kind=script&name=a.txt');
    expect([kind.status, kind.code, kind.message]).toEqual([400, 'invalid_parameter', 'the query parameter "kind" must be one of env, template, got "script"']);
    const name = await platform.call('GET', '/snapshots/snap_none/resources/content?kind=template');
    expect([name.status, name.code, name.message]).toEqual([400, 'missing_parameter', 'the query parameter "name" is required, e.g. ?name=emails%2Fwelcome.txt']);
  });

  it('stores nothing when a request is refused', async () => {
    await platform.call('POST', '/integrations/shop/tags', { json: { tag: 'v'.repeat(129) } });
    expect((await platform.call('GET', '/integrations/shop/tags')).json).toEqual({ tags: [] });
    expect((await platform.call('GET', '/deployments')).json).toEqual({ deployments: [] });
  });
});
