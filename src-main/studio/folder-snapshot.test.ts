import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { snapshotFolder, unchangedSince } from './folder-snapshot.ts';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function folder(): string {
  dir = mkdtempSync(join(tmpdir(), 'folder-snapshot-'));
  mkdirSync(join(dir, 'env'));
  writeFileSync(join(dir, 'orders.yaml'), 'flows: {}\n');
  writeFileSync(join(dir, 'env', 'local.env'), 'REGION=eu\n');
  writeFileSync(join(dir, '.orders.yaml.swp'), 'editor state');
  return dir;
}

describe('a folder snapshot', () => {
  it('holds every file and folder by relative path, leaving out what the watcher ignores and what it is told to skip', () => {
    mkdirSync(join(folder(), 'fixtures'));
    writeFileSync(join(dir, 'fixtures', 'big.json'), '{}');
    writeFileSync(join(dir, 'orders.yaml~'), 'backup');
    expect([...snapshotFolder(dir, (f) => f === 'fixtures').keys()].sort()).toEqual(['env', 'env/local.env', 'orders.yaml']);
  });

  it('sees a rewrite with the same bytes as unchanged, and an edit, a new file or a removed one as changed', () => {
    const snap = snapshotFolder(folder());
    writeFileSync(join(dir, 'orders.yaml'), 'flows: {}\n');
    expect(unchangedSince(snap, dir, ['orders.yaml', 'env', 'env/local.env'])).toBe(true);
    // Created and removed again in one burst: absent then and now.
    expect(unchangedSince(snap, dir, ['gone.yaml'])).toBe(true);
    writeFileSync(join(dir, 'orders.yaml'), 'flows: {a: 1}\n');
    expect(unchangedSince(snap, dir, ['orders.yaml'])).toBe(false);
    writeFileSync(join(dir, 'more.yaml'), 'flows: {}\n');
    expect(unchangedSince(snapshotFolder(dir), dir, ['more.yaml'])).toBe(true);
    expect(unchangedSince(snap, dir, ['more.yaml'])).toBe(false);
    unlinkSync(join(dir, 'env', 'local.env'));
    expect(unchangedSince(snap, dir, ['env/local.env'])).toBe(false);
  });
});
