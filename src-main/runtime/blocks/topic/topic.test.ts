import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startPlatformServer, type PlatformEvent, type PlatformServer } from '../../../platform/index.ts';
import { runtimeOn, until, type RuntimeOnPlatform, type RuntimeOptions } from '../../services/testing/runtime-on-platform.ts';

let dataDir: string;
let platform: PlatformServer;
const running: RuntimeOnPlatform[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'flow-topic-'));
  platform = await startPlatformServer({ dataDir, features: { topics: { pollTimeoutSeconds: 2 } } });
});
afterEach(async () => {
  for (const r of running.splice(0)) await r.stop();
});
afterAll(async () => {
  await platform.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function start(yaml: string, o: RuntimeOptions = {}): Promise<RuntimeOnPlatform> {
  const r = await runtimeOn(platform, yaml, o);
  running.push(r);
  return r;
}

function received(r: RuntimeOnPlatform): unknown[] {
  const bodies: unknown[] = [];
  r.runtime.traces.add({ snapshots: true, emit: (e) => e.kind === 'run' && bodies.push((e.input as { body: unknown }).body) });
  return bodies;
}

const subscriber = (subject: string, system = false) =>
  `flows:\n  listen:\n    source: {type: topic, subject: ${subject}, system: ${system}}\n    steps:\n      - set: {body: 'body.missing'}\n`;

describe('the topic source', () => {
  it('fans every message out to each subscribed instance, failed runs included, and unsubscribes on stop', async () => {
    const events: PlatformEvent[] = [];
    const stop = platform.events.subscribe((e) => e.type.startsWith('topic.') && events.push(e));
    const first = await start(subscriber('prices'), { instanceId: 'one' });
    const second = await start(subscriber('prices'), { instanceId: 'two' });
    const [a, b] = [received(first), received(second)];
    const publisher = await start(`flows:\n  announce:\n    steps:\n      - topic-publish: {subject: prices}\n`, { instanceId: 'three' });
    for (let n = 0; n < 5; n++) await publisher.runtime.run('announce', { n });
    await until(() => a.length === 5 && b.length === 5, 10_000, 'both subscribers');
    const sorted = (list: unknown[]) => [...list].sort((x, y) => (x as { n: number }).n - (y as { n: number }).n);
    expect(sorted(a)).toEqual([0, 1, 2, 3, 4].map((n) => ({ n })));
    expect(sorted(b)).toEqual(sorted(a));
    // Every run failed (body.missing), yet every delivery was acknowledged: topics have no nack.
    await until(() => events.filter((e) => e.type === 'topic.ack').length >= 2, 10_000, 'acks');
    await first.stop();
    running.splice(running.indexOf(first), 1);
    stop();
    expect(events.filter((e) => e.type === 'topic.subscribe')).toHaveLength(2);
    expect(events.filter((e) => e.type === 'topic.unsubscribe')).toHaveLength(1);
  });

  it('keeps a deployment’s subjects to itself unless published with system: true', async () => {
    const same = await start(subscriber('status'), { deploymentId: 'shop', instanceId: 'listener' });
    const other = await start(subscriber('status'), { deploymentId: 'billing', instanceId: 'listener' });
    const platformWide = await start(subscriber('status', true), { deploymentId: 'billing', instanceId: 'system-listener' });
    const [s, o, p] = [received(same), received(other), received(platformWide)];
    const publisher = await start(
      `flows:\n  local:\n    steps:\n      - topic-publish: {subject: status}\n  global:\n    steps:\n      - topic-publish: {subject: status, system: true}\n`,
      { deploymentId: 'shop', instanceId: 'publisher' },
    );
    await publisher.runtime.run('local', { scope: 'shop' });
    await publisher.runtime.run('global', { scope: 'everyone' });
    await until(() => s.length === 1 && p.length === 1, 10_000, 'deliveries');
    // Every subscription to "status" acked all it holds: nothing more can reach any of them.
    await until(async () => (await platform.inspect.topics.subscriptions()).every((sub) => sub.subject !== 'status' || (sub.lag === 0 && sub.inFlight === 0)), 10_000, 'acks');
    expect(s).toEqual([{ scope: 'shop' }]);
    expect(p).toEqual([{ scope: 'everyone' }]);
    expect(o).toEqual([]);
  });
});
