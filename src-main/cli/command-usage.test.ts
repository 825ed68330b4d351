import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const exec = promisify(execFile);

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, ['bin/flow-studio.js', ...args], { cwd: process.cwd() });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

// debug prints its usage on stderr: its stdout belongs to the protocol.
const COMMANDS = ['validate', 'run', 'platform', 'manifest', 'serve', 'test', 'gen'];

describe('flow-studio <command> --help and unknown options', () => {
  it('prints each command\'s usage with --help and exits 0, doing nothing else', async () => {
    for (const command of COMMANDS) {
      const { code, stdout } = await cli(command, '--help');
      expect({ command, code, usage: stdout.startsWith(`usage: flow-studio ${command}`) }).toEqual({ command, code: 0, usage: true });
      // gen used to regenerate every file here instead.
      expect(stdout).not.toContain('wrote ');
    }
  }, 60_000);

  it('refuses an unknown or mistyped option with exit 2, naming it, so `gen --chek` in CI does not regenerate and pass', async () => {
    for (const command of COMMANDS) {
      const { code, stdout, stderr } = await cli(command, '--chek', 'examples/json-api');
      expect({ command, code, named: stderr.includes(`flow-studio ${command}: Unknown option '--chek'`) }).toEqual({ command, code: 2, named: true });
      expect(stdout).not.toContain('wrote ');
    }
  }, 60_000);
});
