import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../testing/platform-harness.ts';
import { readTar, writeTar } from './tar.ts';

let platform: TestPlatform;
const scratch = mkdtempSync(join(tmpdir(), 'flow-bundle-'));
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(async () => {
  await platform.close();
  rmSync(scratch, { recursive: true, force: true });
});

const deepName = `${'deeply-nested-folder/'.repeat(8)}with-a-long-file-name-that-does-not-fit-ustar.txt`;
const binary = Buffer.from([0, 1, 2, 0xff, 0xfe, 0x80, 0x0a]);
const files = {
  'orders.yaml': 'flows:\n  ping: {steps: []}\n',
  'env/config/prod.env': 'TAX_RATE=0.2\r\nREGION="eu west"\n',
  'env/base.env': 'TAX_RATE=0.1\n',
  'template/emails/welcome.txt': 'Hello {{ body.name }} – ünïcödé',
  [`template/${deepName}`]: 'deep',
};

async function seedIntegration(id: string): Promise<void> {
  await platform.call('PUT', `/integrations/${id}/definitions/orders.yaml`, { json: { content: files['orders.yaml'] } });
  for (const [path, content] of Object.entries(files)) {
    if (path === 'orders.yaml') continue;
    const [kind, ...rest] = path.split('/');
    await platform.call('POST', `/integrations/${id}/resources`, { json: { kind, name: rest.join('/'), content } });
  }
  await platform.call('POST', `/integrations/${id}/resources`, { json: { kind: 'template', name: 'pixel.bin', content: binary.toString('base64'), encoding: 'base64' } });
}

describe('integration bundles', () => {
  it('downloads an integration as a tar that the tar tool opens, laid out like its workspace folder', async () => {
    await seedIntegration('bundled');
    const res = await platform.call('GET', '/integrations/bundled/bundle');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-tar');
    const archive = join(scratch, 'bundled.tar');
    writeFileSync(archive, res.bytes);
    const out = join(scratch, 'extracted');
    execFileSync('mkdir', ['-p', out]);
    execFileSync('tar', ['-xf', archive, '-C', out]);
    for (const [path, content] of Object.entries(files)) expect(readFileSync(join(out, path), 'utf8'), path).toBe(content);
    expect(readFileSync(join(out, 'template/pixel.bin')).equals(binary)).toBe(true);
  });

  it('round-trips byte for byte: upload what was downloaded, download it again, same files in the same order', async () => {
    const first = (await platform.call('GET', '/integrations/bundled/bundle')).bytes;
    const upload = await platform.call('PUT', '/integrations/copy/bundle', { body: first, headers: { 'content-type': 'application/x-tar', 'x-flow-actor': 'ci' } });
    expect(upload.status).toBe(200);
    expect(upload.json).toMatchObject({ id: 'copy', definitions: 1, resources: 5, updatedBy: 'ci' });
    const second = (await platform.call('GET', '/integrations/copy/bundle')).bytes;
    const strip = async (archive: Buffer) => (await readTar(archive)).map((e) => ({ path: e.path, content: e.content.toString('base64') }));
    expect(await strip(second)).toEqual(await strip(first));
    const resources = (await platform.call('GET', '/integrations/copy/resources')).json as { resources: Array<{ name: string; kind: string }> };
    expect(resources.resources.map((r) => `${r.kind}/${r.name}`)).toEqual([
      'env/config/prod.env',
      'env/base.env',
      'template/emails/welcome.txt',
      `template/${deepName}`,
      'template/pixel.bin',
    ]);
  });

  it('uploads a tar a person made with the tar tool', async () => {
    const dir = join(scratch, 'by-hand');
    execFileSync('mkdir', ['-p', join(dir, 'env'), join(dir, 'template')]);
    writeFileSync(join(dir, 'flows.yml'), 'flows: {}\n');
    writeFileSync(join(dir, 'env', 'local.env'), 'A=1\n');
    writeFileSync(join(dir, 'template', 'hello.txt'), 'hi');
    execFileSync('tar', ['-cf', join(scratch, 'by-hand.tar'), '-C', dir, '.']);
    const upload = await platform.call('PUT', '/integrations/by-hand/bundle', { body: readFileSync(join(scratch, 'by-hand.tar')) });
    expect(upload.status).toBe(200);
    expect(upload.json).toMatchObject({ definitions: 1, resources: 2 });
  });

  it('replaces the working copy on upload, keeping the id of a resource whose name survives', async () => {
    await platform.call('POST', '/integrations/replaced/resources', { json: { kind: 'env', name: 'keep.env', content: 'A=1' } });
    await platform.call('POST', '/integrations/replaced/resources', { json: { kind: 'env', name: 'drop.env', content: 'B=1' } });
    const before = (await platform.call('GET', '/integrations/replaced/resources')).json as { resources: Array<{ id: string; name: string; version: number }> };
    const archive = await writeTar([{ path: 'env/keep.env', content: Buffer.from('A=2') }]);
    expect((await platform.call('PUT', '/integrations/replaced/bundle', { body: archive })).status).toBe(200);
    const after = (await platform.call('GET', '/integrations/replaced/resources')).json as { resources: Array<{ id: string; name: string; version: number }> };
    expect(after.resources).toEqual([expect.objectContaining({ id: before.resources[0].id, name: 'keep.env', version: 2 })]);
  });

  it.each([
    ['a file with no place in an integration', [{ path: 'README.md', content: Buffer.from('x') }], 'invalid_bundle'],
    ['a resource that breaks a name rule', [{ path: 'env/a/../b.env', content: Buffer.from('x') }], 'resource_name_dot_segment'],
    ['a root-level YAML resource', [{ path: 'template/x.yaml', content: Buffer.from('x') }], 'resource_name_root_yaml'],
  ])('refuses a bundle with %s, and keeps the working copy as it was', async (_what, entries, code) => {
    const res = await platform.call('PUT', '/integrations/bundled/bundle', { body: await writeTar(entries) });
    expect(res.status).toBe(400);
    expect(res.code).toBe(code);
    expect((await platform.call('GET', '/integrations/bundled')).json).toMatchObject({ resources: 5 });
  });

  it('refuses a body that is not a tar archive', async () => {
    const res = await platform.call('PUT', '/integrations/bundled/bundle', { body: Buffer.alloc(1024, 'x') });
    expect(res.code).toBe('invalid_bundle');
  });
});
