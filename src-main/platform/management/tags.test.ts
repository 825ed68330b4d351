import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../testing/platform-harness.ts';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.close());

const definition = `env:
  TAX_RATE:
    description: Sales tax.
    default: "0.2"
  API_TOKEN:
    required: true
    secret: true
  REGION:
    required: true
flows:
  ping: {steps: []}
`;

interface Snapshot {
  snapshotId: string;
  tag: string;
  createdBy: string;
  definitions: Array<{ file: string }>;
  resources: Array<{ kind: string; name: string }>;
  variables: Array<{ name: string; required: boolean; secret: boolean; default?: string; satisfiedBy: string[] }>;
}

const content = (snapshot: string, kind: string, name: string) =>
  platform.call('GET', `/snapshots/${snapshot}/resources/content?kind=${kind}&name=${encodeURIComponent(name)}`);

describe('version tags (spec 2 §3.2, §9)', () => {
  let welcomeId: string;
  let v1: Snapshot;

  beforeAll(async () => {
    await platform.call('PUT', '/integrations/shop/definitions/shop.yaml', { json: { content: definition } });
    await platform.call('POST', '/integrations/shop/resources', { json: { kind: 'env', name: 'config/prod.env', content: 'REGION=eu\nEMPTY=\n' } });
    const welcome = await platform.call('POST', '/integrations/shop/resources', { json: { kind: 'template', name: 'emails/welcome.txt', content: 'Hello v1' } });
    welcomeId = (welcome.json as { id: string }).id;
    const tagged = await platform.call('POST', '/integrations/shop/tags', { json: { tag: 'v1', description: 'first' }, headers: { 'x-flow-actor': 'release-bot' } });
    expect(tagged.status).toBe(201);
    v1 = tagged.json as Snapshot;
  });

  it('freezes the definition and every resource, recording who tagged', () => {
    expect(v1).toMatchObject({ tag: 'v1', createdBy: 'release-bot', definitions: [{ file: 'shop.yaml' }] });
    expect(v1.resources.map((r) => `${r.kind}:${r.name}`)).toEqual(['env:config/prod.env', 'template:emails/welcome.txt']);
    expect(v1.snapshotId).toMatch(/^snap_/);
  });

  it('lists the declared variables and marks those a frozen env resource satisfies', () => {
    expect(v1.variables).toEqual([
      expect.objectContaining({ name: 'TAX_RATE', required: false, default: '0.2', satisfiedBy: [] }),
      expect.objectContaining({ name: 'API_TOKEN', required: true, secret: true, satisfiedBy: [] }),
      expect.objectContaining({ name: 'REGION', required: true, satisfiedBy: ['config/prod.env'] }),
    ]);
  });

  it('keeps serving the tagged bytes after the working copy is edited', async () => {
    await platform.call('PUT', `/integrations/shop/resources/${welcomeId}`, { json: { content: 'Hello v2' } });
    await platform.call('PUT', '/integrations/shop/definitions/shop.yaml', { json: { content: 'flows: {}\n' } });
    expect((await content(v1.snapshotId, 'template', 'emails/welcome.txt')).text).toBe('Hello v1');
    expect((await content(v1.snapshotId, 'env', 'config/prod.env')).text).toBe('REGION=eu\nEMPTY=\n');
    expect((await platform.call('GET', `/integrations/shop/resources/${welcomeId}`)).json).toMatchObject({ content: 'Hello v2' });

    const v2 = (await platform.call('POST', '/integrations/shop/tags', { json: { tag: 'v2' } })).json as Snapshot;
    expect((await content(v2.snapshotId, 'template', 'emails/welcome.txt')).text).toBe('Hello v2');
    expect((await content(v1.snapshotId, 'template', 'emails/welcome.txt')).text).toBe('Hello v1');
  });

  it('keeps a tag when its resource is deleted from the working copy', async () => {
    await platform.call('DELETE', `/integrations/shop/resources/${welcomeId}`);
    expect((await content(v1.snapshotId, 'template', 'emails/welcome.txt')).status).toBe(200);
  });

  it('answers the content endpoint like /v1/resources/content: 404 for a missing resource, kinds kept apart', async () => {
    const missing = await content(v1.snapshotId, 'template', 'config/prod.env');
    expect(missing.status).toBe(404);
    expect(missing.code).toBe('resource_not_found');
    expect((await content('snap_nope', 'env', 'x')).code).toBe('snapshot_not_found');
    expect((await platform.call('GET', `/snapshots/${v1.snapshotId}/resources/content?kind=env`)).status).toBe(400);
  });

  it('never changes a tag: the same name again is refused', async () => {
    const again = await platform.call('POST', '/integrations/shop/tags', { json: { tag: 'v1' } });
    expect(again.status).toBe(409);
    expect(again.code).toBe('tag_exists');
  });

  it('reads tags back by name and lists them in the order they were made', async () => {
    expect((await platform.call('GET', '/integrations/shop/tags/v1')).json).toMatchObject({ snapshotId: v1.snapshotId });
    const list = (await platform.call('GET', '/integrations/shop/tags')).json as { tags: Snapshot[] };
    expect(list.tags.map((t) => t.tag)).toEqual(['v1', 'v2']);
    expect((await platform.call('GET', '/integrations/shop/tags/v9')).code).toBe('tag_not_found');
  });

  it('refuses to tag an integration with no definition, or one whose definition is not YAML', async () => {
    await platform.call('POST', '/integrations/bare/resources', { json: { kind: 'env', name: 'a.env', content: 'A=1' } });
    expect((await platform.call('POST', '/integrations/bare/tags', { json: { tag: 'v1' } })).code).toBe('no_definitions');
    await platform.call('PUT', '/integrations/bare/definitions/broken.yaml', { json: { content: 'env: [unclosed\n' } });
    const broken = await platform.call('POST', '/integrations/bare/tags', { json: { tag: 'v1' } });
    expect(broken.code).toBe('invalid_definition');
    expect(broken.message).toMatch(/^broken\.yaml:\d+:\d+/);
  });

  it('serves the frozen copy as a bundle', async () => {
    const res = await platform.call('GET', `/snapshots/${v1.snapshotId}/bundle`);
    expect(res.status).toBe(200);
    expect(res.bytes.includes('Hello v1')).toBe(true);
  });
});
