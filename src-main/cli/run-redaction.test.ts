import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startPlatformServer } from '../platform/server.ts';

const SECRET = 'sk-redact-me-7f3a9c2e41';

/** A CEL map 24 levels deep with the secret at the bottom, past the old 16-level walk. */
const deepCel = (levels: number): string => '{"n": '.repeat(levels) + 'secret("api-key")' + '}'.repeat(levels);

describe('secret values never leave in plain text (issue 18 item 1)', () => {
  it('a secret() used as a map key or nested 24 levels deep is redacted in stderr, stdout, shipped logs, traces and the platform database', async () => {
    const temp = mkdtempSync(join(tmpdir(), 'flow-redact-'));
    const dataDir = join(temp, 'platform');
    const platform = await startPlatformServer({ dataDir });
    const child = { kill: (_s: NodeJS.Signals) => false } as { kill(s: NodeJS.Signals): boolean };
    try {
      const put = await fetch(`${platform.url}/v1/kv/user_secrets/entry?key=api-key`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${platform.token}` },
        body: SECRET,
      });
      expect(put.status).toBe(201);
      const dir = join(temp, 'leaky');
      mkdirSync(dir);
      writeFileSync(
        join(dir, 'flow.yaml'),
        `flows:
  leaky:
    source: {type: schedule, interval: 200ms}
    steps:
      - set: {body: '${deepCel(24)}'}
      - log:
          level: error
          message: '"leak check"'
          fields:
            m: '{secret("api-key"): 1}'
            deep: '${deepCel(24)}'
            list: '${'['.repeat(40)}secret("api-key")${']'.repeat(40)}'
`,
      );
      const env: Record<string, string | undefined> = { ...process.env, FLOW_PLATFORM_API_URL: platform.url, FLOW_PLATFORM_API_TOKEN: platform.token };
      delete env.RUNTIME_SERVICES_MODULE;
      const proc = spawn(process.execPath, ['bin/flow-studio.js', 'run', dir], { cwd: process.cwd(), env, stdio: ['ignore', 'pipe', 'pipe'] });
      Object.assign(child, { kill: (s: NodeJS.Signals) => proc.kill(s) });
      let stdout = '';
      let stderr = '';
      proc.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      proc.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const deadline = Date.now() + 40_000;
      const shipped = async (): Promise<boolean> =>
        (await platform.logs.list()).some((r) => JSON.stringify(r.record).includes('leak check')) && (await platform.traces.list()).length > 0;
      while (!((stderr.match(/leak check/g)?.length ?? 0) >= 2 && (await shipped())) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const exit = new Promise((r) => (proc.exitCode === null ? proc.once('exit', r) : r(null)));
      proc.kill('SIGINT');
      await exit;

      expect(stderr, stdout + stderr).toContain('leak check');
      expect(await shipped(), 'logs and traces reached the platform').toBe(true);
      expect(stderr).toContain('[redacted]');
      expect(stderr).not.toContain(SECRET);
      expect(stdout).not.toContain(SECRET);
      const records = JSON.stringify([await platform.logs.list({ limit: 1000 }), await platform.traces.list({ limit: 1000 })]);
      expect(records).toContain('[redacted]');
      expect(records).not.toContain(SECRET);
      await platform.close();
      // Every file of the platform's data directory (database, WAL, key file), byte for byte.
      for (const file of readdirSync(dataDir)) {
        expect(readFileSync(join(dataDir, file)).includes(SECRET), file).toBe(false);
      }
    } finally {
      child.kill('SIGKILL');
      await platform.close();
      rmSync(temp, { recursive: true, force: true });
    }
  }, 60_000);
});
