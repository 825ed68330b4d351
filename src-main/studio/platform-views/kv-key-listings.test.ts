import { describe, expect, it } from 'vitest';
import type { KvKeyRow } from '../../platform/index.ts';
import { KeyListings, type KeyLister } from './kv-key-search.ts';

/** Keys in order, as the platform's inspection pages them, counting the pages read. */
function lister(count: number): KeyLister & { pages: number; rows: KvKeyRow[] } {
  const rows = Array.from({ length: count }, (_, i) => ({ key: `k/${String(i).padStart(6, '0')}`, version: 1, updatedAt: 1_000 }));
  const l = {
    pages: 0,
    rows,
    async keys(_ns: string, prefix = '', limit = 10_000, after?: string) {
      l.pages++;
      const from = after ?? prefix;
      return l.rows.filter((r) => r.key.startsWith(prefix) && (after === undefined ? r.key >= from : r.key > from)).slice(0, limit);
    },
  };
  return l;
}

describe('KeyListings', () => {
  it('reads a filtered namespace again only when its key count or highest version changed', async () => {
    const listings = new KeyListings();
    const kv = lister(25_000);
    const counts = { namespace: 'big', keys: 25_000, updatedAt: 1_000, lastVersion: 25_000 };

    const first = await listings.listed(kv, counts, 'big', 'K/0249');
    expect(first.keys).toHaveLength(100);
    expect(kv.pages).toBe(3);

    // Polled again, nothing written: the same listing, no page read.
    expect(await listings.listed(kv, counts, 'big', 'k/0249 ')).toEqual(first);
    expect(kv.pages).toBe(3);

    kv.rows.push({ key: 'k/024999-new', version: 25_001, updatedAt: 1_000 });
    expect((await listings.listed(kv, { ...counts, keys: 25_001, lastVersion: 25_001 }, 'big', 'k/0249')).keys).toHaveLength(101);
    expect(kv.pages).toBe(6);

    // Written again in the same millisecond: the count and the time are as they were, the version is not.
    kv.rows.at(-1)!.version = 25_002;
    expect((await listings.listed(kv, { ...counts, keys: 25_001, lastVersion: 25_002 }, 'big', 'k/0249')).keys.at(-1)?.version).toBe(25_002);
    expect(kv.pages).toBe(9);

    // Another key deleted: the count falls, the highest version stays.
    kv.rows.splice(0, 1);
    await listings.listed(kv, { ...counts, keys: 25_000, lastVersion: 25_002 }, 'big', 'k/0249');
    expect(kv.pages).toBe(12);
  });

  it('keeps each namespace and filter apart', async () => {
    const listings = new KeyListings();
    const kv = lister(30);
    const counts = { namespace: 'a', keys: 30, updatedAt: 1_000, lastVersion: 30 };
    expect((await listings.listed(kv, counts, 'a', 'k/00001')).keys.map((k) => k.key)).toEqual(Array.from({ length: 10 }, (_, i) => `k/00001${i}`));
    expect((await listings.listed(kv, counts, 'a', undefined)).keys).toHaveLength(30);
    expect((await listings.listed(kv, counts, 'a', 'k/00002')).keys).toHaveLength(10);
    expect((await listings.listed(kv, { ...counts, namespace: 'b' }, 'b', 'k/00002')).keys).toHaveLength(10);
    expect(kv.pages).toBe(4);
  });
});
