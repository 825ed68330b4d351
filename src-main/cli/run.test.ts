import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('flow-studio run', () => {
  it('starts an embedded platform when no FLOW_PLATFORM_API_URL is set, so one command runs a queue worker', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'flow-run-'));
    const env: Record<string, string | undefined> = { ...process.env, REPORT_EVERY: '300ms', FLOW_INSTANCE_ID: 'cli-test' };
    for (const k of Object.keys(env)) if (k.startsWith('FLOW_PLATFORM_API') || k === 'RUNTIME_SERVICES_MODULE') delete env[k];
    const child = spawn(process.execPath, ['bin/flow-studio.js', 'run', 'examples/queue-worker', '--data-dir', join(dataDir, 'platform')], {
      cwd: process.cwd(),
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    try {
      const deadline = Date.now() + 40_000;
      while (!out.includes('Report #2 ') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(out).toContain('Report #2 ');
      expect(out).toMatch(/"msg":"embedded platform listening on http:\/\/127\.0\.0\.1:\d+"/);
      expect(out).toMatch(/"msg":"platform services: api \(flow-studio-platform [^)]*\) at http:\/\/127\.0\.0\.1:\d+"/);
      const exit = new Promise<number | null>((r) => child.once('close', r));
      child.kill('SIGINT');
      expect(await exit).toBe(0);
      // With what tracing took of the thread over the runtime's life.
      expect(out).toMatch(/"msg":"runtime stopped".*"tracingMs":\d+/);
      expect(existsSync(join(dataDir, 'platform'))).toBe(true);
    } finally {
      child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
