import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startPlatformServer, type FeatureOverrides, type PlatformServer } from '../../platform/index.ts';
import { LoadError } from '../core/errors.ts';
import { runtimeOn, type RuntimeOnPlatform } from './testing/runtime-on-platform.ts';

const dirs: string[] = [];
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function platformWith(features: FeatureOverrides, port?: number, dataDir?: string): Promise<PlatformServer> {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'flow-services-degraded-'));
  if (!dataDir) dirs.push(dir);
  const server = await startPlatformServer({ dataDir: dir, features, port, token: 'degraded-test' });
  cleanups.push(() => server.close());
  return server;
}

async function runtimeFor(platform: PlatformServer, yaml: string): Promise<RuntimeOnPlatform> {
  const r = await runtimeOn(platform, yaml);
  cleanups.push(() => r.stop());
  return r;
}

const lockFlow = `flows:
  job:
    steps:
      - lock:
          name: '"nightly"'
          ttl: 1s
          steps:
            - set: {body: '"done"'}
`;

describe('a platform without some capabilities', () => {
  it('refuses to load a lock when leases are off and the policy is the default (error)', async () => {
    const platform = await platformWith({ leases: false });
    const err = await runtimeOn(platform, lockFlow).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LoadError);
    expect((err as LoadError).problems.map((p) => `${p.path}: ${p.message}`)).toEqual([
      'flows.job.steps[0].lock: a lock needs the platform capability "leases", which is off (features.leases.supported is false; unsupported: error). ' +
        'Use a platform that provides it, or, for a deployment that runs a single instance, declare unsupported: noop for leases',
    ]);
  });

  it('runs a lock with single-instance semantics when leases are off with unsupported: noop', async () => {
    const platform = await platformWith({ leases: { supported: false, unsupported: 'noop' } });
    const r = await runtimeFor(platform, lockFlow);
    const results = await Promise.all([r.runtime.run('job'), r.runtime.run('job')]);
    // In process, one holder at a time: the second finds the name held and fails with 409.
    expect(results.map((x) => x.outcome).sort()).toEqual(['completed', 'failed']);
    expect(results.find((x) => x.outcome === 'failed')?.error?.message).toMatch(/lock "nightly" is held by another holder/);
    expect((await r.runtime.run('job')).message.body).toBe('done');
  });

  it('refuses to load a leader flow when leader election is off', async () => {
    const platform = await platformWith({ leaderElection: false });
    const err = (await runtimeOn(platform, `flows:\n  tick:\n    leader: true\n    source: {type: schedule, interval: 1s}\n`).catch((e: unknown) => e)) as LoadError;
    expect(err.problems[0].message).toMatch(/^leader: true needs the platform capability "leaderElection", which is off \(features\.leaderElection\.supported is false/);
  });

  it('turns KV off into misses on read and named errors on write', async () => {
    const platform = await platformWith({ kv: false });
    const r = await runtimeFor(
      platform,
      `flows:
  read:
    steps:
      - kv-get: {key: '"a"'}
  write:
    steps:
      - kv-put: {key: '"a"', value: '1'}
  forget:
    steps:
      - kv-delete: {key: '"a"'}
`,
    );
    const read = await r.runtime.run('read', 'unchanged');
    expect(read.outcome).toBe('completed');
    expect(read.message.body).toBeNull();
    expect((await r.runtime.run('forget')).outcome).toBe('completed');
    const write = await r.runtime.run('write');
    expect(write.outcome).toBe('failed');
    expect(write.error?.message).toBe('kv put user/a: the platform capability "kv" is off (features.kv.supported is false; unsupported: noop)');
  });

  it('refuses secret access when the platform keeps no secrets, even with KV working', async () => {
    const platform = await platformWith({ secrets: false });
    const r = await runtimeFor(platform, `flows:\n  call:\n    steps:\n      - set: {body: 'secret("api")'}\n  raw:\n    steps:\n      - kv-get: {namespace: user_secrets, key: '"api"'}\n`);
    expect((await r.runtime.run('call')).error?.message).toMatch(
      /secret user\/api: the platform capability "secrets" is off \(features\.secrets\.supported is false; unsupported: noop\); secret access is refused/,
    );
    expect((await r.runtime.run('raw')).error?.message).toMatch(/kv get user_secrets\/api: the platform capability "secrets" is off/);
  });

  it('refuses request/reply up front, naming the flag, when the platform does not implement it', async () => {
    const platform = await platformWith({ queues: { requestReply: false } });
    const r = await runtimeFor(platform, `flows:\n  ask:\n    steps:\n      - queue-request: {subject: prices, timeout: 1s}\n`);
    const requests: unknown[] = [];
    const stop = platform.events.subscribe((e) => e.type === 'queue.publish' && requests.push(e));
    const result = await r.runtime.run('ask', { sku: 'a' });
    stop();
    expect(result.error?.message).toMatch(/queue request prices: the platform does not implement request\/reply \(features\.queues\.requestReply is false\)/);
    expect(requests).toEqual([]);
  });

  it('turns a capability off for the process when a route answers 501 mid-run, and logs it once', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'flow-services-degraded-'));
    dirs.push(dataDir);
    const first = await platformWith({}, undefined, dataDir);
    const port = Number(new URL(first.url).port);
    const r = await runtimeFor(first, `flows:\n  write:\n    steps:\n      - kv-put: {key: '"a"', value: '1'}\n  read:\n    steps:\n      - kv-get: {key: '"a"'}\n`);
    expect((await r.runtime.run('write')).outcome).toBe('completed');
    // The platform comes back on the same address without KV.
    await first.close();
    await platformWith({ kv: false }, port, dataDir);
    for (let i = 0; i < 3; i++) expect((await r.runtime.run('read')).message.body).toBeNull();
    expect((await r.runtime.run('write')).error?.message).toMatch(/the platform capability "kv" is off \(GET \/v1\/kv\/user\/entry answered 501; unsupported: noop\)/);
    const turnedOff = r.logs.filter((l) => l.msg.includes('platform capability kv turned off'));
    expect(turnedOff).toHaveLength(1);
    expect(turnedOff[0].msg).toBe(
      'platform capability kv turned off for the life of this process: GET /v1/kv/user/entry answered 501; calls now follow unsupported: noop',
    );
    expect(r.services.capability('kv').usable).toBe(false);
  });
});
