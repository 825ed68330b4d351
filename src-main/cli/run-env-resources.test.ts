import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('flow-studio run with env resources', () => {
  it('folds the integration env/ files in path order beneath the process environment', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flow-run-env-'));
    const app = join(dir, 'app');
    mkdirSync(join(app, 'env', 'z'), { recursive: true });
    writeFileSync(
      join(app, 'app.yaml'),
      `env:
  LEVEL: {default: from-default}
  REGION: {required: true}
connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  probe:
    source: {type: http, path: '/probe/\${LEVEL}/\${REGION}', methods: [GET]}
    steps:
      - set: {body: '"ok"'}
`,
    );
    writeFileSync(join(app, 'env', 'a.env'), 'LEVEL=from-a\nREGION=from-a\n');
    writeFileSync(join(app, 'env', 'z', 'later.env'), 'LEVEL=from-later\n');
    const env: Record<string, string | undefined> = { ...process.env, REGION: 'from-process' };
    for (const k of Object.keys(env)) if (k.startsWith('FLOW_') || k === 'RUNTIME_SERVICES_MODULE' || k === 'LEVEL') delete env[k];
    const child = spawn(process.execPath, ['bin/flow-studio.js', 'run', app, '--data-dir', join(dir, 'data')], { cwd: process.cwd(), env, stdio: ['ignore', 'pipe', 'pipe'] });
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
      expect((await fetch(`${url}/probe/from-later/from-process`)).status).toBe(200);
      const exit = new Promise<number | null>((r) => child.once('exit', r));
      child.kill('SIGINT');
      expect(await exit).toBe(0);
    } finally {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 45_000);
});
