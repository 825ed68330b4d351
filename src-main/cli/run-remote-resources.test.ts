import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const temp = mkdtempSync(join(tmpdir(), 'flow-run-remote-resources-'));
const children: ChildProcess[] = [];

/** A CLI command whose output (stdout and stderr) grows as it runs. */
function cli(args: string[], vars: Record<string, string> = {}): { child: ChildProcess; output(): string } {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith('FLOW_') || k === 'RUNTIME_SERVICES_MODULE') delete env[k];
  const child = spawn(process.execPath, ['bin/flow-studio.js', ...args], { cwd: process.cwd(), env: { ...env, ...vars }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  return { child, output: () => output };
}

/** Resolves with the output once it matches; rejects with it if the command exits first. */
function outputMatching(run: { child: ChildProcess; output(): string }, pattern: RegExp): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const check = (): void => {
      if (pattern.test(run.output())) resolvePromise(run.output());
    };
    run.child.stdout!.on('data', check);
    run.child.stderr!.on('data', check);
    run.child.once('exit', (code) => reject(new Error(`exited ${code} before ${pattern}:\n${run.output()}`)));
    check();
  });
}

/** A platform process on a free port with a minted token; its URL and token file. */
async function platform(dataDir: string, extra: string[] = []): Promise<{ url: string; tokenFile: string }> {
  const p = cli(['platform', '--port', '0', '--data-dir', dataDir, ...extra]);
  const out = await outputMatching(p, /flow-studio platform listening on (\S+)/);
  return { url: /flow-studio platform listening on (\S+)/.exec(out)![1], tokenFile: join(dataDir, 'platform.token') };
}

afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(temp, { recursive: true, force: true });
});

describe('flow-studio run on a platform of its own, with resource files beside the definitions', () => {
  it('warns at start of the template and env files the platform lacks and of env files left unfolded, naming the fix and never the token', async () => {
    const app = join(temp, 'app');
    mkdirSync(join(app, 'template', 'mail'), { recursive: true });
    mkdirSync(join(app, 'env'), { recursive: true });
    writeFileSync(
      join(app, 'app.yaml'),
      `connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  greet:
    source: {type: http, path: /greet, methods: [GET]}
    steps:
      - template: {name: mail/welcome.txt}
`,
    );
    writeFileSync(join(app, 'template', 'mail', 'welcome.txt'), 'Hello');
    writeFileSync(join(app, 'env', 'base.env'), 'GREETING=hi\n');
    const { url, tokenFile } = await platform(join(temp, 'bare-platform'));

    const run = cli(['run', app], { FLOW_PLATFORM_API_URL: url, FLOW_PLATFORM_API_TOKEN_FILE: tokenFile });
    const out = await outputMatching(run, /"msg":"runtime started"/);
    expect(out).toContain(
      `"level":"warn","msg":"the platform at ${url} does not hold these resources of ${app}: template/mail/welcome.txt, env/base.env, so steps that read them will fail. ` +
        `Only run's embedded platform loads an integration's template/ and env/ files; restart this platform with --seed-resources ${resolve(app)} to load them (its store keeps them)"`,
    );
    expect(out).toContain(`on a platform of its own, run folds in only the env resources named in FLOW_ENV_RESOURCES; to fold them in as the embedded platform does, set FLOW_ENV_RESOURCES=base.env`);
    expect(out).not.toContain(readFileSync(tokenFile, 'utf8').trim());
  }, 60_000);

  it('says nothing of them once the platform was started with --seed-resources of the folder, and the queue worker logs its reports', async () => {
    const { url, tokenFile } = await platform(join(temp, 'seeded-platform'), ['--seed-resources', 'examples/queue-worker']);
    const run = cli(['run', 'examples/queue-worker'], { FLOW_PLATFORM_API_URL: url, FLOW_PLATFORM_API_TOKEN_FILE: tokenFile, REPORT_EVERY: '300ms' });
    const out = await outputMatching(run, /Report #1 /);
    expect(out).not.toContain('does not hold');
    expect(out).not.toContain('"level":"warn"');
  }, 60_000);
});
