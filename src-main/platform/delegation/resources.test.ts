import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../testing/platform-harness.ts';

let platform: TestPlatform;
const seed = mkdtempSync(join(tmpdir(), 'flow-resources-'));
beforeAll(async () => {
  mkdirSync(join(seed, 'env'), { recursive: true });
  mkdirSync(join(seed, 'template', 'emails'), { recursive: true });
  writeFileSync(join(seed, 'env', 'prod.env'), 'TAX_RATE=0.2\n');
  writeFileSync(join(seed, 'template', 'emails', 'welcome.txt'), 'Hello {{ body.name }}');
  platform = await startTestPlatform({ seedResourcesDir: seed });
});
afterAll(async () => {
  await platform.close();
  rmSync(seed, { recursive: true, force: true });
});

const content = (kind: string, name: string) => platform.call('GET', `/v1/resources/content?kind=${kind}&name=${encodeURIComponent(name)}`);

describe('resources (§4.1)', () => {
  it('serves a template whose name has slashes, byte for byte', async () => {
    const res = await content('template', 'emails/welcome.txt');
    expect(res.status).toBe(200);
    expect(res.text).toBe('Hello {{ body.name }}');
  });

  it('serves env resources', async () => {
    expect((await content('env', 'prod.env')).text).toBe('TAX_RATE=0.2\n');
  });

  it('answers 404 for a missing resource, and keeps kinds apart', async () => {
    const res = await content('template', 'prod.env');
    expect(res.status).toBe(404);
    expect(res.code).toBe('resource_not_found');
  });

  it('serves what the management side writes', async () => {
    await platform.server.resources.write('template', 'invoices/total.txt', Buffer.from('Total: {{ vars.total }}'), 'test');
    expect((await content('template', 'invoices/total.txt')).text).toBe('Total: {{ vars.total }}');
  });

  it('refuses an unknown kind or a missing name with 400', async () => {
    expect((await content('script', 'x')).status).toBe(400);
    expect((await platform.call('GET', '/v1/resources/content?kind=env')).status).toBe(400);
  });
});
