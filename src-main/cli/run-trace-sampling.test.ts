import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('flow-studio run on its embedded platform', () => {
  it('refuses a FLOW_TRACE_SAMPLE_RATIO or FLOW_TRACE_KEEP_FAILED that is not one, before its platform starts', async () => {
    const temp = mkdtempSync(join(tmpdir(), 'flow-run-trace-sampling-'));
    const env: Record<string, string | undefined> = { ...process.env };
    for (const k of Object.keys(env)) if (k.startsWith('FLOW_') || k === 'RUNTIME_SERVICES_MODULE') delete env[k];
    try {
      for (const [name, value, message] of [
        ['FLOW_TRACE_SAMPLE_RATIO', '2', 'FLOW_TRACE_SAMPLE_RATIO must be a number from 0 to 1 (the fraction of runs traced), got "2"'],
        ['FLOW_TRACE_KEEP_FAILED', 'maybe', 'FLOW_TRACE_KEEP_FAILED must be true or false, got "maybe"'],
      ]) {
        const dataDir = join(temp, name);
        const child = spawn(process.execPath, ['bin/flow-studio.js', 'run', 'examples/json-api', '--data-dir', dataDir], {
          cwd: process.cwd(),
          env: { ...env, HTTP_PORT: '0', [name]: value },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let output = '';
        child.stdout.on('data', (c: Buffer) => {
          output += c.toString();
          // Started anyway (as before): stop it, the assertions below say what was wrong.
          if (output.includes('"msg":"runtime started"')) child.kill('SIGKILL');
        });
        child.stderr.on('data', (c: Buffer) => (output += c.toString()));
        // 'close': both pipes have been read to their end.
        const code = await new Promise<number | null>((r) => child.once('close', r));
        expect(output).toContain(`flow-studio run: ${message}`);
        expect(code).toBe(1);
        expect(existsSync(dataDir)).toBe(false);
      }
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  }, 40_000);
});
