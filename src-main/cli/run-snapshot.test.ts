import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from '../platform/testing/platform-harness.ts';

const definition = `env:
  LEVEL: {default: from-default}
  REGION: {required: true}
  COLOUR: {default: from-default}
connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  probe:
    source: {type: http, path: '/probe/\${LEVEL}/\${REGION}/\${COLOUR}', methods: [GET]}
    steps:
      - set: {body: '"ok"'}
`;

let platform: TestPlatform;
let snapshotId: string;
beforeAll(async () => {
  platform = await startTestPlatform();
  await platform.call('PUT', '/integrations/probe/definitions/probe.yaml', { json: { content: definition } });
  // Declared order, not name order: the later-declared base.env overrides z-first.env.
  await platform.call('POST', '/integrations/probe/resources', { json: { kind: 'env', name: 'z-first.env', content: 'LEVEL=from-z-first\nREGION=from-z-first\n' } });
  await platform.call('POST', '/integrations/probe/resources', { json: { kind: 'env', name: 'base.env', content: 'LEVEL=from-base\n' } });
  const tagged = await platform.call('POST', '/integrations/probe/tags', { json: { tag: 'v1' } });
  snapshotId = (tagged.json as { snapshotId: string }).snapshotId;
  // Edits after the tag never reach it.
  await platform.call('POST', '/integrations/probe/resources', { json: { kind: 'env', name: 'late.env', content: 'COLOUR=from-late\n' } });
});
afterAll(() => platform.close());

// Spec 2 §4.2, §4.4: a pod carries only FLOW_SNAPSHOT_ID; the tag's frozen env resources fold in
// their declared order beneath the process environment.
describe('flow-studio run with FLOW_SNAPSHOT_ID alone', () => {
  it('folds the snapshot’s env resources in declared order beneath the process environment', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flow-run-snapshot-'));
    const app = join(dir, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'probe.yaml'), definition);
    const env: Record<string, string | undefined> = { ...process.env };
    for (const k of Object.keys(env)) if (k.startsWith('FLOW_') || k.startsWith('HTTP_') || ['RUNTIME_SERVICES_MODULE', 'LEVEL', 'REGION', 'COLOUR'].includes(k)) delete env[k];
    Object.assign(env, {
      RUNTIME_SERVICES_MODULE: 'api',
      FLOW_PLATFORM_API_URL: platform.url,
      FLOW_PLATFORM_API_TOKEN: platform.server.token,
      FLOW_SNAPSHOT_ID: snapshotId,
      REGION: 'from-process',
    });
    const child = spawn(process.execPath, ['bin/flow-studio.js', 'run', app], { cwd: process.cwd(), env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    try {
      const deadline = Date.now() + 30_000;
      let url: string | undefined;
      while (!url && Date.now() < deadline && child.exitCode === null) {
        url = /"msg":"connector web ready","url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(out)?.[1];
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(url, out).toBeDefined();
      expect((await fetch(`${url}/probe/from-base/from-process/from-default`)).status, out).toBe(200);
      const exit = new Promise<number | null>((r) => child.once('exit', r));
      child.kill('SIGINT');
      expect(await exit).toBe(0);
    } finally {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 45_000);
});
