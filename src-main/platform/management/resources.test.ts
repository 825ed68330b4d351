import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpCaller, startTestPlatform, type TestPlatform } from '../testing/platform-harness.ts';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.close());

type Resource = { id: string; kind: string; name: string; bytes: number; version: number; createdBy: string; updatedBy: string; updatedAt: string; content?: string; encoding?: string };
const create = (integration: string, body: unknown, actor?: string) =>
  platform.call('POST', `/integrations/${integration}/resources`, { json: body, headers: actor ? { 'x-flow-actor': actor } : {} });

describe('integration resources (spec 2 §2.11, §4.2)', () => {
  it('creates, lists, reads, updates and deletes a resource, recording who wrote it and when', async () => {
    const created = await create('orders-api', { kind: 'template', name: 'emails/welcome.txt', content: 'Hello {{ body.name }}' }, 'ana@example.com');
    expect(created.status).toBe(201);
    const r = created.json as Resource;
    expect(r).toMatchObject({ kind: 'template', name: 'emails/welcome.txt', bytes: 21, version: 1, createdBy: 'ana@example.com', updatedBy: 'ana@example.com' });
    expect(Date.parse(r.updatedAt)).toBeGreaterThan(Date.now() - 10_000);

    const list = (await platform.call('GET', '/integrations/orders-api/resources')).json as { resources: Resource[] };
    expect(list.resources.map((x) => x.name)).toEqual(['emails/welcome.txt']);
    expect(list.resources[0].content).toBeUndefined();

    const read = (await platform.call('GET', `/integrations/orders-api/resources/${r.id}`)).json as Resource;
    expect(read).toMatchObject({ content: 'Hello {{ body.name }}', encoding: 'utf8' });

    const updated = await platform.call('PUT', `/integrations/orders-api/resources/${r.id}`, { json: { content: 'Hi {{ body.name }}' } });
    expect(updated.status).toBe(200);
    expect(updated.json).toMatchObject({ version: 2, createdBy: 'ana@example.com', updatedBy: 'local' });

    expect((await platform.call('DELETE', `/integrations/orders-api/resources/${r.id}`)).status).toBe(204);
    expect((await platform.call('GET', `/integrations/orders-api/resources/${r.id}`)).code).toBe('resource_not_found');
  });

  it.each([
    ['an absolute name', '/etc/prod.env', 'resource_name_absolute'],
    ['a .. segment', 'config/../prod.env', 'resource_name_dot_segment'],
    ['an empty segment', 'config//prod.env', 'resource_name_empty_segment'],
    ['a trailing slash', 'config/', 'resource_name_empty_segment'],
    ['a root-level .yaml', 'settings.yaml', 'resource_name_root_yaml'],
    ['a root-level .yml', 'settings.yml', 'resource_name_root_yaml'],
    ['an empty name', '', 'resource_name_empty'],
  ])('refuses %s with a 400 naming the rule', async (_what, name, code) => {
    const res = await create('name-rules', { kind: 'env', name, content: 'A=1\n' });
    expect(res.status).toBe(400);
    expect(res.code).toBe(code);
    expect(res.message).toContain(name === '' ? 'name' : name);
  });

  it('refuses a second resource of the same name in an integration, of either kind, and allows it in another', async () => {
    expect((await create('dup-a', { kind: 'env', name: 'config/prod.env', content: 'A=1' })).status).toBe(201);
    const again = await create('dup-a', { kind: 'template', name: 'config/prod.env', content: 'x' });
    expect(again.status).toBe(400);
    expect(again.code).toBe('resource_name_duplicate');
    expect((await create('dup-b', { kind: 'env', name: 'config/prod.env', content: 'A=2' })).status).toBe(201);
  });

  it('accepts a nested YAML file as a resource, since only root-level ones are definitions', async () => {
    expect((await create('nested-yaml', { kind: 'template', name: 'config/settings.yaml', content: 'a: 1' })).status).toBe(201);
  });

  it('refuses a rename onto a taken name, and a write from a stale version', async () => {
    const a = (await create('renames', { kind: 'env', name: 'a.env', content: 'A=1' })).json as Resource;
    await create('renames', { kind: 'env', name: 'b.env', content: 'B=1' });
    const rename = await platform.call('PUT', `/integrations/renames/resources/${a.id}`, { json: { name: 'b.env' } });
    expect(rename.code).toBe('resource_name_duplicate');
    const stale = await platform.call('PUT', `/integrations/renames/resources/${a.id}`, { json: { content: 'A=2' }, headers: { 'x-object-version': '7' } });
    expect(stale.status).toBe(409);
    const fresh = await platform.call('PUT', `/integrations/renames/resources/${a.id}`, { json: { content: 'A=2', name: 'c.env' }, headers: { 'x-object-version': '1' } });
    expect(fresh.json).toMatchObject({ name: 'c.env', version: 2 });
  });

  it('downloads each resource on its own, byte for byte, binary included', async () => {
    const bytes = Buffer.from([0xff, 0x00, 0xfe, 0x0a, 0x80]);
    const r = (await create('downloads', { kind: 'template', name: 'images/pixel.bin', content: bytes.toString('base64'), encoding: 'base64' })).json as Resource;
    const download = await platform.call('GET', `/integrations/downloads/resources/${r.id}/content`);
    expect(download.status).toBe(200);
    expect(download.bytes.equals(bytes)).toBe(true);
    expect(download.headers.get('content-disposition')).toContain('pixel.bin');
    expect((await platform.call('GET', `/integrations/downloads/resources/${r.id}`)).json).toMatchObject({ encoding: 'base64', content: bytes.toString('base64') });
  });

  it('keeps resources in the order they were declared', async () => {
    for (const name of ['z.env', 'a.env', 'm.env']) await create('ordered', { kind: 'env', name, content: 'X=1' });
    const list = (await platform.call('GET', '/integrations/ordered/resources')).json as { resources: Resource[] };
    expect(list.resources.map((r) => r.name)).toEqual(['z.env', 'a.env', 'm.env']);
  });

  it('answers 404 for an integration that does not exist, saying how one comes to exist', async () => {
    const res = await platform.call('GET', '/integrations/nowhere/resources');
    expect(res.status).toBe(404);
    expect(res.code).toBe('integration_not_found');
    expect((await platform.call('PUT', '/integrations/nowhere')).status).toBe(201);
    expect((await platform.call('GET', '/integrations/nowhere/resources')).json).toEqual({ resources: [] });
  });

  it('refuses an unknown kind, and requires the bearer token', async () => {
    expect((await create('kinds', { kind: 'script', name: 'a.js', content: '' })).code).toBe('invalid_field');
    const anonymous = httpCaller(platform.url, undefined);
    expect((await anonymous('GET', '/integrations')).status).toBe(401);
    expect((await anonymous('GET', '/secrets')).status).toBe(401);
  });
});
