import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatformServer, type PlatformEvent, type PlatformServer } from '../../../platform/index.ts';
import { runtimeOn, until } from '../../services/testing/runtime-on-platform.ts';

let dataDir: string;
let platform: PlatformServer;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'flow-lock-'));
  platform = await startPlatformServer({ dataDir });
});
afterAll(async () => {
  await platform.close();
  rmSync(dataDir, { recursive: true, force: true });
});

// Inside the lock, a create-only write marks "someone is inside": a second holder at the same
// time would find the marker and fail with 409.
const guarded = `flows:
  settle:
    source: {type: queue, subject: settlements}
    workers: 4
    steps:
      - lock:
          name: '"ledger"'
          ttl: 2s
          wait: 20s
          steps:
            - kv-put: {key: '"ledger/inside"', value: 'body.n', expectedVersion: 0}
            - kv-put: {key: '"ledger/last"', value: 'body.n'}
            - kv-get: {key: '"ledger/last"', resultVar: last}
            - kv-delete: {key: '"ledger/inside"'}
`;

describe('the lock block', () => {
  it('never runs its steps in two instances at once', async () => {
    const a = await runtimeOn(platform, guarded, { instanceId: 'a' });
    const b = await runtimeOn(platform, guarded, { instanceId: 'b' });
    const outcomes: string[] = [];
    for (const r of [a, b]) r.runtime.traces.add({ emit: (e) => e.kind === 'run' && outcomes.push(`${e.outcome}${e.error ? `: ${e.error}` : ''}`) });
    const grants: PlatformEvent[] = [];
    const stop = platform.events.subscribe((e) => e.type === 'lease.grant' && grants.push(e));
    try {
      // A consumer group starts with the messages published after its first receive. Both
      // instances' receives are on the wire once runtimeOn returned.
      await until(async () => (await platform.inspect.queues.counts()).some((g) => g.subject === 'settlements'), 10_000, 'the consumers receiving');
      for (let n = 0; n < 24; n++) await a.services.queues.publish('settlements', { n });
      await until(() => outcomes.length >= 24, 25_000, '24 runs');
      expect(outcomes).toEqual(Array(24).fill('completed'));
      // Both instances took the lock at some point, one at a time.
      const holders = new Set(grants.map((g) => (g as { holder: string }).holder));
      expect(holders).toEqual(new Set(['a', 'b']));
    } finally {
      stop();
      await a.stop();
      await b.stop();
    }
  });

  it('fails with 409 when the name stays held, or drops the message with onBusy: drop', async () => {
    const r = await runtimeOn(
      platform,
      `flows:
  strict:
    steps:
      - lock: {name: '"busy"', steps: [{set: {body: '1'}}]}
  lenient:
    steps:
      - lock: {name: '"busy"', wait: 100ms, onBusy: drop, steps: [{set: {body: '1'}}]}
`,
      { instanceId: 'c' },
    );
    const held = await r.services.leases.acquire('busy', 5000);
    try {
      const strict = await r.runtime.run('strict');
      expect(strict.error?.message).toBe('lock "busy" is held by another holder');
      expect((await r.runtime.run('lenient')).outcome).toBe('dropped');
      await held!.release();
      expect((await r.runtime.run('strict')).message.body).toBe(1);
    } finally {
      await r.stop();
    }
  });
});
