import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatformServer, type PlatformServer } from '../platform/index.ts';
import { runCli } from './test-support/cli-process.ts';

const WRONG = 'not-the-token-5b1e';

describe('flow-studio run with a token the platform refuses', () => {
  let dir: string;
  let platform: PlatformServer;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'flow-run-wrong-token-'));
    platform = await startPlatformServer({ dataDir: dir, token: 'the-right-token' });
  });
  afterAll(async () => {
    await platform.close();
    rmSync(dir, { recursive: true, force: true });
  });

  // Discovery needs no token, so it answered 200 to any: the runtime started, bound its routes and
  // answered 500 to every request that reached the platform.
  it('fails the start at once, naming the 401 and the variables to check, and binds no route', async () => {
    const started = Date.now();
    const { code, output, stopped } = await runCli(['run', 'examples/json-api'], {
      env: { FLOW_PLATFORM_API_URL: platform.url, FLOW_PLATFORM_API_TOKEN: WRONG, HTTP_PORT: '0' },
      stopWhen: (out) => out.includes('runtime started'),
    });
    expect(stopped, output).toBe(false);
    expect(code).toBe(1);
    expect(output).toContain(`flow-studio run: credentials check at ${platform.url}: platform GET /v1/kv/system/entry answered 401`);
    expect(output).toContain('(check FLOW_PLATFORM_API_TOKEN, FLOW_PLATFORM_API_TOKEN_FILE or FLOW_PLATFORM_API_HEADERS)');
    expect(output).not.toContain('listening');
    expect(output).not.toContain(WRONG);
    expect(Date.now() - started).toBeLessThan(15_000); // not after a discovery budget
  }, 30_000);

  it('names a token file it cannot read, or an empty one, and binds no route', async () => {
    const missing = join(dir, 'no-such.token');
    const gone = await runCli(['run', 'examples/json-api'], {
      env: { FLOW_PLATFORM_API_URL: platform.url, FLOW_PLATFORM_API_TOKEN_FILE: missing, HTTP_PORT: '0' },
      stopWhen: (out) => out.includes('runtime started'),
    });
    expect(gone.stopped, gone.output).toBe(false);
    expect(gone.code).toBe(1);
    expect(gone.output).toContain(`flow-studio run: FLOW_PLATFORM_API_TOKEN_FILE: cannot read ${missing}: ENOENT`);
    const empty = join(dir, 'empty.token');
    writeFileSync(empty, '\n');
    const blank = await runCli(['run', 'examples/json-api'], {
      env: { FLOW_PLATFORM_API_URL: platform.url, FLOW_PLATFORM_API_TOKEN_FILE: empty, HTTP_PORT: '0' },
      stopWhen: (out) => out.includes('runtime started'),
    });
    expect(blank.code, blank.output).toBe(1);
    expect(blank.output).toContain(`flow-studio run: FLOW_PLATFORM_API_TOKEN_FILE: ${empty} is empty`);
  }, 30_000);

  it('starts with the right token', async () => {
    const { output, stopped } = await runCli(['run', 'examples/json-api'], {
      env: { FLOW_PLATFORM_API_URL: platform.url, FLOW_PLATFORM_API_TOKEN: 'the-right-token', HTTP_PORT: '0' },
      stopWhen: (out) => out.includes('runtime started'),
    });
    expect(stopped, output).toBe(true);
  }, 30_000);
});
