import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './test-support/cli-process.ts';

describe('flow-studio run on its embedded platform', () => {
  it('refuses a FLOW_TRACE_SAMPLE_RATIO or FLOW_TRACE_KEEP_FAILED that is not one, before its platform starts', async () => {
    const temp = mkdtempSync(join(tmpdir(), 'flow-run-trace-sampling-'));
    try {
      for (const [name, value, message] of [
        ['FLOW_TRACE_SAMPLE_RATIO', '2', 'FLOW_TRACE_SAMPLE_RATIO must be a number from 0 to 1 (the fraction of runs traced), got "2"'],
        ['FLOW_TRACE_KEEP_FAILED', 'maybe', 'FLOW_TRACE_KEEP_FAILED must be true or false, got "maybe"'],
      ]) {
        const dataDir = join(temp, name);
        // Started anyway (as before): stopped, and the assertions below say what was wrong.
        const { code, output } = await runCli(['run', 'examples/json-api', '--data-dir', dataDir], {
          env: { HTTP_PORT: '0', [name]: value },
          stopWhen: (out) => out.includes('"msg":"runtime started"'),
        });
        expect(output).toContain(`flow-studio run: ${message}`);
        expect(code).toBe(1);
        expect(existsSync(dataDir)).toBe(false);
      }
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  }, 40_000);
});
