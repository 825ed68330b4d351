import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatformServer, type PlatformServer } from '../../platform/index.ts';
import { runtimeOn, type RuntimeOnPlatform } from './testing/runtime-on-platform.ts';

let dataDir: string;
let platform: PlatformServer;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'flow-services-kv-'));
  platform = await startPlatformServer({ dataDir, features: { kv: { maxValueBytes: 64 } } });
});
afterAll(async () => {
  await platform.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const flows = `flows:
  save:
    steps:
      - kv-put: {key: '"orders/" + body.id', value: body, versionVar: v}
  load:
    steps:
      - kv-get: {key: '"orders/" + body.id', versionVar: v}
  cas:
    steps:
      - kv-put: {key: '"orders/" + body.id', value: body, expectedVersion: body.expected}
  forget:
    steps:
      - kv-delete: {key: '"orders/" + body.id'}
`;

describe('kv blocks on the platform', () => {
  let r: RuntimeOnPlatform;
  beforeAll(async () => {
    r = await runtimeOn(platform, flows);
  });
  afterAll(() => r.stop());

  it('stores a value under a key with a slash and reads it back with its version', async () => {
    const saved = await r.runtime.run('save', { id: 'a/1', total: 3 });
    expect(saved.outcome).toBe('completed');
    const loaded = await r.runtime.run('load', { id: 'a/1' });
    expect(loaded.message.body).toEqual({ id: 'a/1', total: 3 });
    expect(loaded.message.vars.v).toBe(saved.message.vars.v);
  });

  it('reads a missing key as a miss, not a failure', async () => {
    const loaded = await r.runtime.run('load', { id: 'never' });
    expect(loaded.outcome).toBe('completed');
    expect(loaded.message.body).toBeNull();
    expect(loaded.message.vars.v).toBe(0);
  });

  it('writes with an expected version as compare-and-set, failing a stale or create-only write with 409', async () => {
    const created = await r.runtime.run('cas', { id: 'c', expected: 0 });
    expect(created.outcome).toBe('completed');
    const again = await r.runtime.run('cas', { id: 'c', expected: 0 });
    expect(again.outcome).toBe('failed');
    expect(again.error?.message).toMatch(/kv put user\/orders\/c: the entry already exists \(create-only write, 409\)/);
    const { message } = await r.runtime.run('load', { id: 'c' });
    expect((await r.runtime.run('cas', { id: 'c', expected: message.vars.v })).outcome).toBe('completed');
    const stale = await r.runtime.run('cas', { id: 'c', expected: message.vars.v });
    expect(stale.error?.message).toMatch(/version \d+ is not the stored version \(409\)/);
  });

  it('deletes an entry, and deleting it again still succeeds', async () => {
    await r.runtime.run('save', { id: 'd' });
    expect((await r.runtime.run('forget', { id: 'd' })).outcome).toBe('completed');
    expect((await r.runtime.run('forget', { id: 'd' })).outcome).toBe('completed');
    expect((await r.runtime.run('load', { id: 'd' })).message.body).toBeNull();
  });

  it('refuses a value over the platform’s maxValueBytes before sending it, naming the limit', async () => {
    const puts: unknown[] = [];
    const stop = platform.events.subscribe((e) => e.type === 'kv.put' && puts.push(e));
    const result = await r.runtime.run('save', { id: 'big', text: 'x'.repeat(100) });
    stop();
    expect(result.error?.message).toMatch(/the value is \d+ bytes; the platform accepts at most 64 \(features\.kv\.maxValueBytes\)/);
    expect(puts).toEqual([]);
  });
});

describe('secrets', () => {
  it('reads a secret into a setting with secret() and masks its value in logs and errors', async () => {
    const r = await runtimeOn(
      platform,
      `flows:
  call:
    steps:
      - set: {vars: {auth: '"Bearer " + secret("partner-token")'}}
      - log: {message: '"calling with " + vars.auth'}
      - filter: {condition: 'false', reject: {status: 401, body: '{"error": "rejected " + secret("partner-token")}'}}
`,
      { start: false },
    );
    try {
      await r.services.kv.put('user_secrets', 'partner-token', Buffer.from('s3cr3t-value'));
      await r.runtime.start();
      const result = await r.runtime.run('call');
      expect(result.message.vars.auth).toBe('Bearer s3cr3t-value');
      expect(result.message.vars.httpStatus).toBe(401);
      const text = JSON.stringify(r.logs);
      expect(text).toContain('calling with Bearer [redacted]');
      expect(text).not.toContain('s3cr3t-value');
    } finally {
      await r.stop();
    }
  });

  it('reads a secret named at run time on first use, in any core block', async () => {
    const r = await runtimeOn(
      platform,
      `flows:
  check:
    steps:
      - filter: {condition: 'secret(body.name) == "open-sesame"'}
      - set: {vars: {len: 'size(secret(body.name))'}}
      - log: {message: '"checked " + secret(body.name)'}
`,
    );
    try {
      await r.services.kv.put('user_secrets', 'door', Buffer.from('open-sesame'));
      const result = await r.runtime.run('check', { name: 'door' });
      expect(result.outcome).toBe('completed');
      expect(result.message.vars.len).toBe(11);
      expect(r.logs.find((l) => l.msg.startsWith('checked'))?.msg).toBe('checked [redacted]');
    } finally {
      await r.stop();
    }
  });

  it('fails a secret that does not exist, naming it', async () => {
    const r = await runtimeOn(platform, `flows:\n  call:\n    steps:\n      - set: {body: 'secret("nope")'}\n`);
    try {
      expect((await r.runtime.run('call')).error?.message).toMatch(/secret "nope" does not exist on the platform/);
    } finally {
      await r.stop();
    }
  });
});
