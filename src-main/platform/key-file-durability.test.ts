import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const KEY_FILES = ['secret-store.key', 'flow-secrets.key'];
const hasStrace = spawnSync('strace', ['-V']).status === 0;

/** `flow-studio platform` as a person starts it; resolves once it listens, then stops it with SIGINT. */
async function runPlatformOnce(dataDir: string, wrap: string[] = []): Promise<string> {
  const args = [...wrap, process.execPath, 'bin/flow-studio.js', 'platform', '--port', '0', '--data-dir', dataDir];
  // Its own process group: SIGINT reaches the platform also when strace wraps it.
  const child = spawn(args[0], args.slice(1), { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const deadline = Date.now() + 40_000;
  while (!out.includes('listening on') && child.exitCode === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  try {
    const url = /listening on (\S+)/.exec(out)?.[1];
    expect(url, out).toBeDefined();
    // The cluster secret store's key is made on first use: store one secret.
    const token = readFileSync(join(dataDir, 'platform.token'), 'utf8').trim();
    const put = await fetch(`${url}/secrets/probe`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{"value":"v"}' });
    expect([200, 201]).toContain(put.status);
  } finally {
    process.kill(-child.pid!, 'SIGINT');
    await exited;
  }
  return out;
}

describe('key files are written atomically and fsynced (issue 18 item 11)', () => {
  it('creates each key whole, 0600, with no temporary file left, ignoring a leftover of an interrupted write', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'flow-keys-'));
    try {
      // What an interrupted earlier write leaves behind: a partial temporary file, never the key itself.
      writeFileSync(join(dataDir, '.secret-store.key.999.abcdef.tmp'), Buffer.alloc(7));
      await runPlatformOnce(dataDir);
      for (const name of KEY_FILES) {
        const path = join(dataDir, name);
        expect(readFileSync(path).length, name).toBe(32);
        expect(statSync(path).mode & 0o777, name).toBe(0o600);
      }
      expect(readdirSync(dataDir).filter((f) => f.endsWith('.tmp') && !f.includes('.999.'))).toEqual([]);
      // The keys survive a restart unchanged (created once, never rewritten).
      const keys = KEY_FILES.map((n) => readFileSync(join(dataDir, n)).toString('hex'));
      await runPlatformOnce(dataDir);
      expect(KEY_FILES.map((n) => readFileSync(join(dataDir, n)).toString('hex'))).toEqual(keys);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);

  it.skipIf(!hasStrace)('writes a temporary file, fsyncs it, links it to the key name, then fsyncs the directory (seen with strace)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'flow-keys-'));
    const traceFile = join(dataDir, '..', `${dataDir.split('/').pop()}.strace`);
    try {
      await runPlatformOnce(dataDir, ['strace', '-f', '-qq', '-e', 'trace=openat,fsync,link,linkat,rename,renameat,renameat2', '-o', traceFile]);
      const lines = joinResumed(readFileSync(traceFile, 'utf8').split('\n'));
      for (const name of KEY_FILES) {
        const open = lines.findIndex((l) => l.includes(`/.${name}.`) && l.includes('O_CREAT') && l.includes('O_EXCL'));
        expect(open, `${name}: temporary file opened`).toBeGreaterThan(-1);
        const fd = /= (\d+)$/.exec(lines[open])![1];
        const pid = lines[open].split(' ')[0];
        const fsyncTmp = lines.findIndex((l, i) => i > open && l.startsWith(pid) && l.includes(`fsync(${fd})`));
        expect(fsyncTmp, `${name}: temporary file fsynced`).toBeGreaterThan(open);
        const link = lines.findIndex((l, i) => i > fsyncTmp && /\blink(at)?\(/.test(l) && l.includes(`/${name}"`));
        expect(link, `${name}: linked to its name after the fsync`).toBeGreaterThan(fsyncTmp);
        const openDir = lines.findIndex((l, i) => i > link && l.startsWith(pid) && l.includes(`"${dataDir}"`) && l.includes('O_RDONLY'));
        expect(openDir, `${name}: directory opened after the link`).toBeGreaterThan(link);
        const dirFd = /= (\d+)$/.exec(lines[openDir])![1];
        expect(lines.findIndex((l, i) => i > openDir && l.startsWith(pid) && l.includes(`fsync(${dirFd})`)), `${name}: directory fsynced`).toBeGreaterThan(openDir);
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(traceFile, { force: true });
    }
  }, 90_000);
});

/**
 * strace -f splits a call another thread interrupts ("openat(… <unfinished ...>", later
 * "<... openat resumed>) = 23"): the server's other threads (the WAL checkpointer, libuv's pool)
 * make that common, so each split call is put back on one line, where its call started.
 */
function joinResumed(lines: string[]): string[] {
  const out: string[] = [];
  const open = new Map<string, number>();
  for (const line of lines) {
    const pid = line.split(' ')[0];
    const resumed = /^\S+\s+<\.\.\. \w+ resumed>(.*)$/.exec(line);
    if (resumed && open.has(pid)) {
      const at = open.get(pid)!;
      out[at] = out[at].replace(/ <unfinished \.\.\.>$/, '') + resumed[1];
      open.delete(pid);
      continue;
    }
    if (line.endsWith('<unfinished ...>')) open.set(pid, out.length);
    out.push(line);
  }
  return out;
}
