import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatformServer, type PlatformServer } from '../../platform/index.ts';
import { runtimeOn } from './testing/runtime-on-platform.ts';

let dir: string;
let platform: PlatformServer;
let snapshotId: string;

const call = async (method: string, path: string, json?: unknown): Promise<Record<string, unknown>> => {
  const res = await fetch(platform.url + path, {
    method,
    headers: { authorization: `Bearer ${platform.token}`, 'content-type': 'application/json' },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await res.text();
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
};

const flows = `flows:
  greet:
    steps:
      - template: {name: emails/welcome.txt}
  inline:
    steps:
      - set: {body: 'templateResource("emails/welcome.txt", {"body": body})'}
`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'flow-snapshot-'));
  platform = await startPlatformServer({ dataDir: dir });
  const welcome = await call('POST', '/integrations/mail/resources', { kind: 'template', name: 'emails/welcome.txt', content: 'v1: Hello {{ body.name }}' });
  await call('PUT', '/integrations/mail/definitions/mail.yaml', { content: flows });
  snapshotId = (await call('POST', '/integrations/mail/tags', { tag: 'v1' })).snapshotId as string;
  // The working copy moves on after the tag; the global store has a same-named template too.
  await call('PUT', `/integrations/mail/resources/${String(welcome.id)}`, { content: 'v2: Hello {{ body.name }}' });
  await platform.resources.write('template', 'emails/welcome.txt', Buffer.from('working: Hello {{ body.name }}'), 'test');
});
afterAll(async () => {
  await platform.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a runtime carrying FLOW_SNAPSHOT_ID', () => {
  it('renders the frozen template of its tag, in the template block and templateResource()', async () => {
    const r = await runtimeOn(platform, flows, { env: { FLOW_SNAPSHOT_ID: snapshotId } });
    try {
      expect((await r.runtime.run('greet', { name: 'Ana' })).message.body).toBe('v1: Hello Ana');
      expect((await r.runtime.run('inline', { name: 'Bo' })).message.body).toBe('v1: Hello Bo');
    } finally {
      await r.stop();
    }
  });

  it('reads /v1/resources/content without it', async () => {
    const r = await runtimeOn(platform, flows);
    try {
      expect((await r.runtime.run('greet', { name: 'Ana' })).message.body).toBe('working: Hello Ana');
    } finally {
      await r.stop();
    }
  });

  it('fails loudly, instead of reading nothing, when its snapshot does not exist', async () => {
    const r = await runtimeOn(platform, `flows:\n  greet:\n    steps:\n      - template: {name: emails/welcome.txt}\n`, { env: { FLOW_SNAPSHOT_ID: 'snap_gone' } });
    try {
      const result = await r.runtime.run('greet', { name: 'Ana' });
      expect(result.outcome).toBe('failed');
      expect(result.error?.message).toContain('snapshot_not_found');
    } finally {
      await r.stop();
    }
  });
});
