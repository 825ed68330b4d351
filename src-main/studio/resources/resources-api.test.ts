import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startStudioHarness, type StudioHarness } from '../testing/studio-harness.ts';

const SECRET = 'sk-live-7d1e0c94b25a4f6b';

const definition = `env:
  GREETING:
    description: How the shop greets.
    default: from-default
  API_TOKEN:
    required: true
    secret: true
connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  greet:
    source: {type: http, path: /greet, methods: [GET]}
    steps:
      - set: {body: '{"greeting": env("GREETING"), "tokenLength": size(env("API_TOKEN"))}'}
  reply:
    source: {type: http, path: /reply, methods: [GET]}
    steps:
      - template: {name: reply.txt}
`;

let harness: StudioHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function shop(): Promise<StudioHarness> {
  harness = await startStudioHarness({ shop: { 'shop.yaml': definition, 'template/reply.txt': 'v1 for {{ vars.method }}' } });
  return harness;
}

const getJson = async (url: string): Promise<unknown> => (await fetch(url)).json();
const routeOf = (routes: Array<{ path: string; url: string }>, path: string): string => routes.find((r) => r.path === path)!.url;

describe('resources, secrets and the environment of a studio run', () => {
  it('creates an env resource whose variable becomes the effective value, then a binding wins over it', async () => {
    const { backend } = await shop();
    const api = backend.api;
    expect(await api.checkResourceName('shop', 'env', '/abs.env')).toEqual({ ok: false, code: 'resource_name_absolute', message: expect.stringMatching(/absolute/) });
    expect(await api.checkResourceName('shop', 'env', 'reply.txt')).toMatchObject({ ok: false, code: 'resource_name_duplicate' });
    await api.createResource('shop', 'env', 'local.env', '# local settings\nGREETING=from-env-file\n');

    let view = await api.environmentView({ kind: 'working-copy', integration: 'shop' });
    const greeting = () => view.variables.find((v) => v.name === 'GREETING')!;
    expect(greeting().effective).toBe('env-resource');
    expect(greeting().sources.find((s) => s.wins)).toMatchObject({ file: 'env/local.env', line: 2, value: 'from-env-file' });
    expect(view.variables.find((v) => v.name === 'API_TOKEN')).toMatchObject({ effective: 'missing', problem: expect.stringMatching(/^required/) });

    await api.putSecret('shop-token', SECRET);
    await api.setRunBinding('shop', 'API_TOKEN', { secret: 'shop-token' });
    await expect(api.setRunBinding('shop', 'API_TOKEN', { value: 'literal' })).rejects.toThrow(/declared secret: true/);
    await api.setRunBinding('shop', 'GREETING', { value: 'from-binding' });
    view = await api.environmentView({ kind: 'working-copy', integration: 'shop' });
    expect(greeting().effective).toBe('binding');
    expect(JSON.stringify(view)).not.toContain(SECRET);

    // The run gets exactly that: the binding, the secret's value (used, never shown), folded env files beneath.
    // A reload may follow the start (the watcher saw the new env file); each generation listens on a new port, so ask the latest.
    const state = await api.startIntegration('shop');
    expect(state.status).toBe('running');
    const latest = async (): Promise<unknown> => {
      const routes = (await api.runStates()).find((s) => s.integration === 'shop')?.routes ?? [];
      return routes.length ? getJson(routeOf(routes, '/greet')).catch(() => undefined) : undefined;
    };
    await expect.poll(latest, { timeout: 5_000 }).toEqual({ greeting: 'from-binding', tokenLength: SECRET.length });
    await api.setRunBinding('shop', 'GREETING', null);
    await expect.poll(latest, { timeout: 5_000 }).toEqual({ greeting: 'from-env-file', tokenLength: SECRET.length });
  });

  it('keeps a secret value out of every answer and out of the data directory in plain text', async () => {
    const { backend } = await shop();
    const answers = [await backend.api.putSecret('shop-token', SECRET), await backend.api.putSecret('shop-token', SECRET + '-2'), await backend.api.listSecrets()];
    expect(JSON.stringify(answers)).not.toContain(SECRET);
    expect(answers[2]).toEqual([expect.objectContaining({ name: 'shop-token', usedBy: [] })]);
    const dataDir = join(harness!.workspaceDir, '..', 'data');
    const files = readdirSync(dataDir, { recursive: true }).map(String).filter((f) => statSync(join(dataDir, f)).isFile());
    expect(files).toContain('flow-secrets');
    for (const f of files) expect(readFileSync(join(dataDir, f)).includes(SECRET), f).toBe(false);
  });

  it('tags a version, diffs it against the working copy, and deploys it with bindings checked up front', async () => {
    const { backend, workspaceDir } = await shop();
    const api = backend.api;
    const tag = await api.createTag('shop', 'v1', 'first');
    expect(tag).toMatchObject({ tag: 'v1', createdBy: expect.any(String), resources: [{ kind: 'template', name: 'reply.txt' }] });
    expect(tag.variables.find((v) => v.name === 'API_TOKEN')).toMatchObject({ required: true, satisfiedBy: [] });

    await expect(api.deployTag({ deployment: 'shop-v1', integration: 'shop', tag: 'v1', bindings: {} })).rejects.toThrow(/requires API_TOKEN/);
    await api.putSecret('shop-token', SECRET);
    const deployed = await api.deployTag({ deployment: 'shop-v1', integration: 'shop', tag: 'v1', bindings: { API_TOKEN: { secret: 'shop-token' } } });
    expect(deployed).toMatchObject({ status: 'running', snapshotId: tag.snapshotId });
    const replyUrl = routeOf(deployed.routes, '/reply');
    expect(await getJson(replyUrl)).toBe('v1 for GET');

    writeFileSync(join(workspaceDir, 'shop', 'template', 'reply.txt'), 'v2 for {{ vars.method }}');
    const diff = await api.diffTag('shop', 'v1');
    expect(diff.files.find((f) => f.path === 'template/reply.txt')).toMatchObject({
      status: 'changed',
      hunks: [{ lines: [{ op: 'remove', text: 'v1 for {{ vars.method }}' }, { op: 'add', text: 'v2 for {{ vars.method }}' }] }],
    });
    expect(diff.files.find((f) => f.path === 'shop.yaml')?.status).toBe('unchanged');
    // The tag keeps serving its frozen template.
    expect(await getJson(replyUrl)).toBe('v1 for GET');

    const view = await api.environmentView({ kind: 'deployment', deployment: 'shop-v1' });
    expect(view.variables.find((v) => v.name === 'API_TOKEN')).toMatchObject({ effective: 'secret', sources: [{ kind: 'secret', secret: 'shop-token', wins: true }] });

    await expect(api.deleteSecret('shop-token', false)).rejects.toThrow(/bound by deployment "shop-v1" \(API_TOKEN\)/);
    expect((await api.listSecrets())[0].usedBy).toEqual([{ deployment: 'shop-v1', variable: 'API_TOKEN' }]);
    expect(await api.deleteSecret('shop-token', true)).toEqual({ deleted: 'shop-token', brokenDeployments: [{ deployment: 'shop-v1', variable: 'API_TOKEN' }], brokenStudioRuns: [] });

    expect((await api.stopDeployment('shop-v1')).status).toBe('stopped');
    const restarted = await api.startDeployment('shop-v1');
    expect(restarted).toMatchObject({ status: 'failed', reason: expect.stringMatching(/secret "shop-token", which no longer exists/) });
    await api.removeDeployment('shop-v1');
    expect(await api.listDeployments()).toEqual([]);
  });

  it('names the studio runs that bind a secret and refuses to delete it under them until forced', async () => {
    const { backend } = await shop();
    const api = backend.api;
    await api.putSecret('shop-token', SECRET);
    await api.setRunBinding('shop', 'API_TOKEN', { secret: 'shop-token' });
    expect(await api.startIntegration('shop')).toMatchObject({ status: 'running' });
    expect((await api.listSecrets())[0]).toMatchObject({ usedBy: [], studioRuns: [{ integration: 'shop', variable: 'API_TOKEN' }] });

    await expect(api.deleteSecret('shop-token', false)).rejects.toThrow(/bound by the studio runs of shop \(API_TOKEN\)/);
    expect((await api.listSecrets()).map((s) => s.name)).toEqual(['shop-token']);
    expect(await api.deleteSecret('shop-token', true)).toEqual({ deleted: 'shop-token', brokenDeployments: [], brokenStudioRuns: [{ integration: 'shop', variable: 'API_TOKEN' }] });
    expect(await api.restartIntegration('shop')).toMatchObject({ status: 'failed', reason: expect.stringMatching(/bound to the secret "shop-token", which does not exist/) });
  });

  it('exports a bundle and imports it elsewhere after a preview of what it creates, overwrites and removes', async () => {
    const { backend, workspaceDir } = await shop();
    const api = backend.api;
    const bundle = await api.exportBundle('shop');
    expect(bundle.fileName).toBe('shop.tar');

    const fresh = await api.previewBundleImport('shop-copy', bundle.base64);
    expect(fresh).toMatchObject({ integration: 'shop-copy', exists: false });
    expect(fresh.entries.map((e) => [e.path, e.change])).toEqual([
      ['shop.yaml', 'create'],
      ['template/reply.txt', 'create'],
    ]);
    await api.importBundle('shop-copy', bundle.base64);
    expect(readFileSync(join(workspaceDir, 'shop-copy', 'template', 'reply.txt'), 'utf8')).toBe('v1 for {{ vars.method }}');

    writeFileSync(join(workspaceDir, 'shop-copy', 'template', 'reply.txt'), 'changed');
    writeFileSync(join(workspaceDir, 'shop-copy', 'extra.yaml'), 'flows: {}\n');
    const again = await api.previewBundleImport('shop-copy', bundle.base64);
    expect(again.entries.map((e) => [e.path, e.change])).toEqual([
      ['shop.yaml', 'unchanged'],
      ['template/reply.txt', 'overwrite'],
      ['extra.yaml', 'remove'],
    ]);
    await expect(api.previewBundleImport('shop-copy', Buffer.from('not a tar').toString('base64'))).rejects.toThrow();
  });

  it('renders a template against a sample message, naming the line of a mistake', async () => {
    const { backend } = await shop();
    expect(await backend.api.previewTemplate('Hello {{ body.name }}, {{ vars.count + 1 }}', { body: { name: 'Ana' }, vars: { count: 2 } })).toEqual({ ok: true, text: 'Hello Ana, 3' });
    expect(await backend.api.previewTemplate('ok\n{{ body.name ', { body: {}, vars: {} })).toEqual({ ok: false, error: 'line 2: "{{" is never closed with "}}"' });
  });
});
