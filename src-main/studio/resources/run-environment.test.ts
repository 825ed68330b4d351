import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PlatformEvent } from '../../platform/index.ts';
import { startEmbeddedPlatform } from '../embedded-platform.ts';
import { startStudioBackend, type StudioBackend } from '../studio-backend.ts';

const worker = `connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  enqueue:
    source: {type: http, path: /jobs, methods: [POST]}
    steps:
      - queue-publish: {subject: jobs}
      - set: {body: '"queued"'}
  work:
    source: {type: queue, subject: jobs}
    steps:
      - log: {message: '"worked " + body.job'}
`;

let temp: string | undefined;
let backend: StudioBackend | undefined;
afterEach(async () => {
  await backend?.close();
  if (temp) rmSync(temp, { recursive: true, force: true });
  backend = undefined;
  temp = undefined;
});

describe('a studio run on the embedded platform', () => {
  it('consumes its queues as the group named after the integration, and ships its logs to the platform', async () => {
    temp = mkdtempSync(join(tmpdir(), 'run-env-'));
    mkdirSync(join(temp, 'workspace', 'worker'), { recursive: true });
    writeFileSync(join(temp, 'workspace', 'worker', 'worker.yaml'), worker);
    // A platform of the test's own beside the studio's data folder (which the backend takes for itself).
    const platform = await startEmbeddedPlatform({ dataDir: join(temp, 'platform') });
    const events: PlatformEvent[] = [];
    platform.views!.subscribe((e) => events.push(e), { telemetry: true });
    backend = await startStudioBackend({ workspaceDir: join(temp, 'workspace'), dataDir: join(temp, 'data'), shell: 'web', platform });

    const state = await backend.api.startIntegration('worker');
    expect(state.status).toBe('running');
    await fetch(state.routes[0].url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"job": "report"}' });
    await expect.poll(() => events.some((e) => e.type === 'queue.ack'), { timeout: 10_000 }).toBe(true);
    expect(events.find((e) => e.type === 'queue.deliver')).toMatchObject({ subject: 'jobs', consumerGroup: 'worker' });

    // Log batches are shipped on an interval; stopping flushes them.
    await backend.api.stopIntegration('worker');
    const shipped = events.flatMap((e) => (e.type === 'logs' ? (e.records as Array<Record<string, unknown>>) : []));
    expect(shipped).toContainEqual(expect.objectContaining({ msg: 'worked report', deployment: 'worker', instance: 'studio' }));
  });
});
