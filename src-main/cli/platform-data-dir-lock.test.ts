import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { lockDataDir } from '../platform/index.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const temp = mkdtempSync(join(tmpdir(), 'platform-data-dir-lock-'));
const children: ChildProcess[] = [];
/** Printed once each command serves: the platform's address, or the runtime's start. */
const READY = /flow-studio platform listening on (\S+)|"msg":"runtime started"/;

interface Started {
  child: ChildProcess;
  pid: number;
  output(): string;
}

function spawnCli(args: string[], env: NodeJS.ProcessEnv = process.env): { child: ChildProcess; output(): string } {
  const child = spawn(process.execPath, [join(root, 'bin', 'flow-studio.js'), ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  return { child, output: () => output };
}

/** A command that must start: resolves once it says it serves. */
function started(args: string[]): Promise<Started> {
  return startedWith(args, {});
}

/** The same, with these variables over the environment. */
function startedWith(args: string[], vars: Record<string, string>): Promise<Started> {
  const { child, output } = spawnCli(args, { ...process.env, ...vars });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', () => {
      if (READY.test(output())) resolve({ child, pid: child.pid!, output });
    });
    child.once('exit', (code) => reject(new Error(`flow-studio ${args[0]} exited ${code} before it served:\n${output()}`)));
  });
}

/** A command expected to refuse: its exit code and output. One that serves instead is killed, its code then null. */
function refused(args: string[]): Promise<{ code: number | null; output: string }> {
  const { child, output } = spawnCli(args);
  child.stdout!.on('data', () => {
    if (READY.test(output())) child.kill('SIGKILL');
  });
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, output: output() })));
}

function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

afterAll(async () => {
  await Promise.all(children.map(killed));
  rmSync(temp, { recursive: true, force: true });
});

const platformOn = (dataDir: string): string[] => ['platform', '--port', '0', '--data-dir', dataDir];
const runOn = (dataDir: string): string[] => ['run', 'examples/json-api', '--data-dir', dataDir];

describe('one process per platform data folder', () => {
  it('refuses a second platform and a run on a folder a platform holds, without touching its token; a SIGKILLed holder blocks nothing', async () => {
    const dataDir = join(temp, 'platform');
    const first = await started(platformOn(dataDir));
    const url = new URL(READY.exec(first.output())![1]).origin;
    const token = readFileSync(join(dataDir, 'platform.token'), 'utf8');

    const second = await refused(platformOn(dataDir));
    expect(second.code).toBe(1);
    expect(second.output).toContain(`flow-studio platform: the data folder ${dataDir} is in use by Flow Studio (pid ${first.pid}, at ${url}, flow-studio platform since `);
    expect(second.output).toContain('give it a data folder of its own (--data-dir <another folder>)');
    expect(second.output).not.toMatch(/\n\s+at /);
    // A second platform used to mint its token over the first's file, locking out the first's clients.
    expect(readFileSync(join(dataDir, 'platform.token'), 'utf8')).toBe(token);
    const health = await fetch(`${url}/v1/discovery`, { headers: { authorization: `Bearer ${token.trim()}` } });
    expect(health.status).toBe(200);

    const run = await refused(runOn(dataDir));
    expect(run.code).toBe(1);
    expect(run.output).toContain(`flow-studio run: the data folder ${dataDir} is in use by Flow Studio (pid ${first.pid}, at ${url}, flow-studio platform since `);
    // Told how to run on the platform that holds the folder instead.
    expect(run.output).toContain(`start this run with FLOW_PLATFORM_API_URL=${url} and FLOW_PLATFORM_API_TOKEN_FILE=${join(dataDir, 'platform.token')}`);

    // Another folder is free.
    const elsewhere = await started(platformOn(join(temp, 'platform-2')));
    await killed(elsewhere.child);

    await killed(first.child);
    const next = await started(platformOn(dataDir));
    const nextUrl = new URL(READY.exec(next.output())![1]).origin;
    const nextToken = readFileSync(join(dataDir, 'platform.token'), 'utf8').trim();
    expect((await fetch(`${nextUrl}/v1/discovery`, { headers: { authorization: `Bearer ${nextToken}` } })).status).toBe(200);
    await killed(next.child);
  }, 90_000);

  it('tells a run refused by a platform started with --no-token to use that platform without a token, and following that it runs', async () => {
    const dataDir = join(temp, 'open-platform');
    const holder = await started(['platform', '--port', '0', '--data-dir', dataDir, '--no-token']);
    const url = new URL(READY.exec(holder.output())![1]).origin;
    const run = await refused(runOn(dataDir));
    expect(run.code).toBe(1);
    expect(run.output).toContain(`to run flows on that platform, start this run with FLOW_PLATFORM_API_URL=${url} (it asks for no token), or give this run`);
    expect(run.output).not.toContain('FLOW_PLATFORM_API_TOKEN');
    // The advice works as given: the same run with that variable starts on the holder's platform.
    const onHolder = await startedWith(['run', 'examples/json-api'], { FLOW_PLATFORM_API_URL: url });
    expect(onHolder.output()).toContain(`at ${url}`);
    await killed(onHolder.child);
    await killed(holder.child);
  }, 90_000);

  it('refuses a second run and a platform on the folder of a run with its embedded platform', async () => {
    const dataDir = join(temp, 'run');
    const first = await started(runOn(dataDir));
    const url = /embedded platform listening on (\S+?)"/.exec(first.output())![1];

    const second = await refused(runOn(dataDir));
    expect(second.code).toBe(1);
    expect(second.output).toContain(`flow-studio run: the data folder ${dataDir} is in use by Flow Studio (pid ${first.pid}, at ${url}, flow-studio run since `);
    expect(second.output).toContain('give this run a data folder of its own (--data-dir <another folder>)');
    expect(second.output).toContain('point every run at it with FLOW_PLATFORM_API_URL and FLOW_PLATFORM_API_TOKEN_FILE');

    const platform = await refused(platformOn(dataDir));
    expect(platform.code).toBe(1);
    expect(platform.output).toContain(`(pid ${first.pid}, at ${url}, flow-studio run since `);
    await killed(first.child);
  }, 90_000);

  it('with PostgreSQL, refuses a platform that would mint its token into a folder in use, and lets a replica given its token share the folder', async () => {
    const dataDir = join(temp, 'postgres');
    // Nothing listens on port 1: the lock is decided before the store is reached.
    const store = 'postgres://flow@127.0.0.1:1/nowhere';
    const held = await lockDataDir(dataDir, 'platform');
    try {
      const minting = await refused(['platform', '--port', '0', '--data-dir', dataDir, '--store', store]);
      expect(minting.code).toBe(1);
      expect(minting.output).toContain(`flow-studio platform: the data folder ${dataDir} is in use by Flow Studio (pid ${process.pid}, flow-studio platform since `);
      expect(minting.output).toContain('or give every replica its token (--token-file F), so that none mints one into the folder');

      const given = await refused(['platform', '--port', '0', '--data-dir', dataDir, '--store', store, '--token', 'replica-token']);
      expect(given.output).not.toContain('is in use');
      expect(given.output).toContain("cannot reach the platform's PostgreSQL store");
    } finally {
      held.release();
    }
  }, 90_000);
});
