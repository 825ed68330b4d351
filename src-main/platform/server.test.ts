import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../shared/clock.ts';
import { startTestPlatform, testStore } from './testing/platform-harness.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'flow-platform-restart-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('the platform server across a restart', () => {
  it('keeps entries, secrets, subscriptions and counters, and never reissues a version or fencing token', async () => {
    const first = await startTestPlatform({ dataDir });
    const put = await first.call('PUT', '/v1/kv/user/entry?key=kept', { body: 'kept value' });
    await first.call('PUT', '/v1/kv/user_secrets/entry?key=token', { body: 'secret value' });
    const doomed = await first.call('PUT', '/v1/kv/user/entry?key=doomed', { body: 'x' });
    await first.call('DELETE', '/v1/kv/user/entry?key=doomed');
    const lease = (await first.call('POST', '/v1/leases/acquire', { json: { name: 'n', ttlSeconds: 1 } })).json as { fencingToken: number };
    const sub = ((await first.call('POST', '/v1/topics/t/subscriptions', { json: {} })).json as { subscriptionId: string }).subscriptionId;
    await first.call('PUT', '/v1/kv/user_volatile/entry?key=v', { body: 'gone after restart' });
    await first.close();

    // The restarted server's clock stands a second and a bit later, past the lease's TTL (on
    // PostgreSQL the database's clock decides, so there the test waits that second instead).
    const second = await startTestPlatform({ dataDir, clock: new ManualClock(Date.now() + 1100) });
    try {
      const kept = await second.call('GET', '/v1/kv/user/entry?key=kept');
      expect(kept.text).toBe('kept value');
      expect(kept.headers.get('x-object-version')).toBe(put.headers.get('x-object-version'));
      expect((await second.call('GET', '/v1/kv/user_secrets/entry?key=token')).text).toBe('secret value');
      // SQLite keeps *_volatile in memory; PostgreSQL shares it between replicas in an UNLOGGED table that only a crash empties.
      if (testStore() === 'sqlite') expect((await second.call('GET', '/v1/kv/user_volatile/entry?key=v')).status).toBe(404);
      const recreated = await second.call('PUT', '/v1/kv/user/entry?key=doomed', { body: 'y' });
      expect(Number(recreated.headers.get('x-object-version'))).toBeGreaterThan(Number(doomed.headers.get('x-object-version')));
      if (testStore() !== 'sqlite') await second.elapse(1000);
      const next = (await second.call('POST', '/v1/leases/acquire', { json: { name: 'n', ttlSeconds: 1 } })).json as { fencingToken: number };
      expect(next.fencingToken).toBeGreaterThan(lease.fencingToken);
      await second.call('POST', '/v1/topics/t/publish', { json: { body: 'after restart' } });
      const received = await second.call('POST', '/v1/topics/t/receive', { json: { subscriptionId: sub, waitSeconds: 0 } });
      expect((received.json as { messages: Array<{ body: string }> }).messages.map((m) => m.body)).toEqual(['after restart']);
    } finally {
      await second.close();
    }
  });

  it('answers waiting long polls with 503 when it stops, and stops promptly', async () => {
    const platform = await startTestPlatform({ manualClock: true });
    const parked = platform.nextTimer();
    const polling = platform.call('POST', '/v1/queues/q/receive', { json: { consumerGroup: 'g', waitSeconds: 10 } });
    await parked;
    const started = performance.now();
    await platform.close();
    // The poll's 10 s never pass on the manual clock: a close that waited for it would not end.
    // What it takes otherwise is closing the store, ~0.1 s, and read 1.02 s beside other load.
    expect(performance.now() - started).toBeLessThan(5_000);
    const res = await polling;
    expect(res.status).toBe(503);
    expect(res.code).toBe('shutting_down');
  });
});
