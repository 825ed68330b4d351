import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliEnv } from './test-support/cli-process.ts';

const temp = mkdtempSync(join(tmpdir(), 'flow-second-signal-'));
const children: ChildProcess[] = [];
const servers: Server[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  for (const s of servers) s.closeAllConnections();
  for (const s of servers) s.close();
  rmSync(temp, { recursive: true, force: true });
});

/** A started `flow-studio <args>` whose output grows as it runs. */
function start(args: string[]): { child: ChildProcess; output(): string; closed: Promise<{ code: number | null; signal: NodeJS.Signals | null }> } {
  const child = spawn(process.execPath, ['bin/flow-studio.js', ...args], { cwd: process.cwd(), env: cliEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
  return { child, output: () => output, closed };
}

/** Resolves with the first match of `pattern` in the output; rejects if the command ends first. */
function waitFor(p: ReturnType<typeof start>, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const check = (): void => {
      const m = pattern.exec(p.output());
      if (m) resolve(m);
    };
    p.child.stdout!.on('data', check);
    p.child.stderr!.on('data', check);
    void p.closed.then(() => reject(new Error(`ended before ${pattern}:\n${p.output()}`)));
    check();
  });
}

describe('a second SIGINT or SIGTERM while stopping', () => {
  it('flow-studio run: the first waits for the run in flight; the second says what it did not wait for and exits 130', async () => {
    // An upstream that never answers: the webhook's run stays in flight, and a graceful stop waits for it (10 s).
    const upstream = createServer(() => {});
    servers.push(upstream);
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    const app = join(temp, 'slow-upstream');
    mkdirSync(app, { recursive: true });
    writeFileSync(
      join(app, 'app.yaml'),
      `connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
  upstream: {type: http-client, baseURL: 'http://127.0.0.1:${(upstream.address() as AddressInfo).port}', timeout: 60s}
flows:
  hook:
    source: {type: http, path: /hook, methods: [POST]}
    steps:
      - rest: {connector: upstream, method: POST, path: /slow}
`,
    );
    const run = start(['run', app, '--data-dir', join(temp, 'run-data')]);
    const url = (await waitFor(run, /connector web ready.*?"url":"(http:\/\/127\.0\.0\.1:\d+)/))[1];
    const upstreamHeld = new Promise((r) => upstream.once('request', r));
    request(`${url}/hook`, { method: 'POST' }).on('error', () => {}).end('{}');
    await upstreamHeld;

    run.child.kill('SIGINT');
    await waitFor(run, /"msg":"[^"]*stopping/);
    run.child.kill('SIGINT');
    const end = await run.closed;
    expect(end).toEqual({ code: 130, signal: null });
    expect(run.output()).toContain('flow-studio run: second SIGINT: stopping now without waiting for 1 in-flight run\n');
  }, 60_000);

  it('flow-studio platform: the second SIGTERM names the answers in progress, exits 143, and every acknowledged write is there on restart', async () => {
    const dataDir = join(temp, 'platform-data');
    const args = ['platform', '--port', '0', '--data-dir', dataDir, '--no-token'];
    const first = start(args);
    const url = (await waitFor(first, /listening on (http:\/\/\S+)/))[1];
    const put = await fetch(`${url}/v1/kv/user/entry?key=kept`, { method: 'PUT', body: 'written before the stop' });
    expect(put.status).toBe(201);
    // A request whose body is still on its way: a graceful stop lets its answer finish (up to 2 s).
    const trickle = request(`${url}/v1/kv/user/entry?key=cut`, { method: 'PUT', headers: { 'content-length': '100' } });
    trickle.on('error', () => {});
    trickle.write('x');
    await expect.poll(() => fetch(`${url}/v1/kv/user/entry?key=kept`).then((r) => r.status)).toBe(200);

    first.child.kill('SIGTERM');
    await waitFor(first, /SIGTERM, stopping/);
    first.child.kill('SIGTERM');
    expect(await first.closed).toEqual({ code: 143, signal: null });
    expect(first.output()).toMatch(/flow-studio platform: second SIGTERM: stopping now without waiting for \d+ open connections? to be answered and the store to close\n/);

    const second = start(args);
    const again = (await waitFor(second, /listening on (http:\/\/\S+)/))[1];
    const read = await fetch(`${again}/v1/kv/user/entry?key=kept`);
    expect(read.status).toBe(200);
    expect(await read.text()).toContain('written before the stop');
    second.child.kill('SIGTERM');
    expect((await second.closed).code).toBe(0);
  }, 60_000);
});
