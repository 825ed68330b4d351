import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { httpCaller, testDatabaseUrl, testStore, type Call } from './testing/platform-harness.ts';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'flow-platform-crash-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

/** Starts `flow-studio platform` in a child process and resolves with its URL once it listens. */
async function startChild(): Promise<{ child: ChildProcess; call: Call; exited: Promise<unknown> }> {
  const store = testStore() === 'sqlite' ? [] : ['--store', await testDatabaseUrl(dataDir)];
  const child = spawn(process.execPath, ['bin/flow-studio.js', 'platform', '--port', '0', '--data-dir', dataDir, '--no-token', ...store], {
    cwd: repo,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const exited = new Promise((r) => child.once('exit', r));
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`the platform did not start within 20 s:\n${output}`)), 20_000);
    const read = (chunk: Buffer): void => {
      output += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ child, call: httpCaller(url, undefined), exited });
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`the platform exited with ${code}:\n${output}`)));
  });
}

describe('crash safety', () => {
  it('keeps every message and write answered 2xx before a SIGKILL', async () => {
    const first = await startChild();
    const written = new Map<string, string>();
    const published = new Set<number>();
    let killed = false;

    const writer = async (id: number): Promise<void> => {
      for (let n = 0; !killed; n++) {
        const key = `w${id}-${n}`;
        const value = `value ${id}/${n} ${'x'.repeat(n % 50)}`;
        try {
          const res = await first.call('PUT', `/v1/kv/user/entry?key=${key}`, { body: value });
          if (res.status === 201) written.set(key, value);
        } catch (err) {
          if (!killed) throw err;
          return; // the server died mid-request: that write was never acknowledged
        }
      }
    };
    let nextMessage = 0;
    const publisher = async (): Promise<void> => {
      while (!killed) {
        const n = nextMessage++;
        try {
          const res = await first.call('POST', '/v1/queues/crash/publish', { json: { body: n } });
          if (res.status === 202) published.add(n);
        } catch (err) {
          if (!killed) throw err;
          return;
        }
      }
    };
    const load = [...Array.from({ length: 4 }, (_, i) => writer(i)), ...Array.from({ length: 4 }, publisher)];
    const loadFailed = Promise.all(load).then(() => new Error('the load stopped before the kill'));
    while (written.size < 300 || published.size < 300) {
      const failed = await Promise.race([loadFailed, new Promise((r) => setTimeout(r, 20))]);
      if (failed instanceof Error) throw failed;
    }
    // Killed with requests in flight: whatever was answered 2xx must survive.
    first.child.kill('SIGKILL');
    killed = true;
    await Promise.all(load);
    await first.exited;

    const second = await startChild();
    for (const [key, value] of written) {
      const res = await second.call('GET', `/v1/kv/user/entry?key=${key}`);
      expect(res.status, key).toBe(200);
      expect(res.text).toBe(value);
    }
    const recovered = new Set<number>();
    for (;;) {
      const res = await second.call('POST', '/v1/queues/crash/receive', { json: { consumerGroup: 'after-crash', waitSeconds: 0, maxMessages: 100 } });
      if (res.status === 204) break;
      for (const m of (res.json as { messages: Array<{ body: number }> }).messages) recovered.add(m.body);
    }
    const lost = [...published].filter((n) => !recovered.has(n));
    expect(lost).toEqual([]);
    second.child.kill('SIGTERM');
    await second.exited;
  }, 120_000); // two cold starts of the CLI and 600 writes: long on a loaded machine
});
