import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readTar, writeTar } from './tar.ts';

const scratch = mkdtempSync(join(tmpdir(), 'flow-tar-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const longSegment = 'a-file-name-longer-than-one-hundred-bytes-'.repeat(3) + 'ünïcödé.txt';
const entries = [
  { path: 'short.txt', content: Buffer.from('short') },
  { path: `template/${'folder/'.repeat(30)}split.txt`, content: Buffer.from('split into prefix and name') },
  { path: `template/${longSegment}`, content: Buffer.from('needs a PAX path record') },
  { path: 'empty.txt', content: Buffer.alloc(0) },
  { path: 'block.bin', content: Buffer.alloc(512, 7) },
];

describe('the tar writer and reader', () => {
  it('writes archives the tar tool extracts, long and non-ASCII paths included', async () => {
    const file = join(scratch, 'mine.tar');
    writeFileSync(file, await writeTar(entries));
    const out = join(scratch, 'out');
    mkdirSync(out);
    execFileSync('tar', ['-xf', file, '-C', out]);
    for (const e of entries) expect(readFileSync(join(out, e.path)).equals(e.content), e.path).toBe(true);
  });

  it('reads back what it wrote, in order', async () => {
    expect((await readTar(await writeTar(entries))).map((e) => [e.path, e.content.toString()])).toEqual(entries.map((e) => [e.path, e.content.toString()]));
  });

  it.each(['gnu', 'pax', 'ustar'])('reads what the tar tool writes in %s format', async (format) => {
    const src = join(scratch, `src-${format}`);
    const name = format === 'ustar' ? 'plain.txt' : longSegment;
    mkdirSync(join(src, 'template'), { recursive: true });
    writeFileSync(join(src, 'template', name), 'from the tar tool');
    const file = join(scratch, `${format}.tar`);
    execFileSync('tar', [`--format=${format}`, '-cf', file, '-C', src, 'template']);
    expect((await readTar(readFileSync(file))).map((e) => [e.path, e.content.toString()])).toEqual([[`template/${name}`, 'from the tar tool']]);
  });

  it('refuses links and truncated archives', async () => {
    const src = join(scratch, 'links');
    mkdirSync(src);
    writeFileSync(join(src, 'target.txt'), 'x');
    execFileSync('ln', ['-s', 'target.txt', join(src, 'link.txt')]);
    const file = join(scratch, 'links.tar');
    execFileSync('tar', ['-cf', file, '-C', src, 'link.txt']);
    await expect(readTar(readFileSync(file))).rejects.toThrow(/not a regular file/);
    const whole = await writeTar([{ path: 'big.bin', content: Buffer.alloc(2048, 1) }]);
    await expect(readTar(whole.subarray(0, 1024))).rejects.toThrow(/truncated/);
  });

  it('refuses a file that is not a tar archive, saying so', async () => {
    const notTar = Buffer.concat([Buffer.from('PK\u0003\u0004 a zip file'), Buffer.alloc(1024, 1)]);
    await expect(readTar(notTar)).rejects.toThrow(/the bundle is not a tar archive/);
  });
});
