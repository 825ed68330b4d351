import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStudioHarness, type StudioHarness } from '../testing/studio-harness.ts';

// More keys than the KV view lists at once (10,000): the last ones sort after every listed one.
const KEYS = 10_050;
const key = (i: number): string => `orders/${String(i).padStart(5, '0')}`;

let h: StudioHarness;
beforeAll(async () => {
  h = await startStudioHarness({});
  const { api } = h.backend;
  for (let i = 0; i < KEYS; i += 500) {
    await Promise.all(
      Array.from({ length: Math.min(500, KEYS - i) }, (_, j) => api.writeKvEntry({ namespace: 'user', key: key(i + j), text: String(i + j), format: 'json', expectedVersion: 0 })),
    );
  }
}, 120_000);
afterAll(() => h?.close());

describe('the KV view of a namespace with more keys than it lists', () => {
  it('says the list is cut, and finds a key past the cut when the filter names it', async () => {
    const { api } = h.backend;
    const all = await api.kvView({ namespace: 'user' });
    expect(all.keys).toHaveLength(10_000);
    expect(all.keysCut).toBe(true);
    expect(all.namespaces.find((n) => n.namespace === 'user')?.keys).toBe(KEYS);

    const found = await api.kvView({ namespace: 'user', filter: 'ORDERS/1004' });
    expect(found.keys.map((k) => k.key)).toEqual(Array.from({ length: 10 }, (_, i) => key(10_040 + i)));
    expect(found.keysCut).toBe(false);
  });
});

describe('the KV view polled while keys change', () => {
  it('shows a key written, a version changed and a key deleted at the next poll, with and without a filter', async () => {
    const { api } = h.backend;
    for (const filter of [undefined, 'orders/1004']) {
      const before = await api.kvView({ namespace: 'user', filter });
      const keyOf = (view: typeof before, k: string) => view.keys.find((row) => row.key === k);
      // Polled again unchanged: the same keys.
      expect((await api.kvView({ namespace: 'user', filter })).keys).toEqual(before.keys);

      const added = filter ? 'orders/10049-extra' : 'orders/00000-extra';
      const write = async (text: string, expectedVersion: number): Promise<number> => {
        const result = await api.writeKvEntry({ namespace: 'user', key: added, text, format: 'json', expectedVersion });
        if (!result.ok) throw new Error(result.conflict);
        return result.version;
      };
      const created = await write('1', 0);
      expect(keyOf(await api.kvView({ namespace: 'user', filter }), added)?.version).toBe(created);

      const changed = await write('2', created);
      expect(changed).not.toBe(created);
      expect(keyOf(await api.kvView({ namespace: 'user', filter }), added)?.version).toBe(changed);

      await api.deleteKvEntry('user', added, changed);
      expect(keyOf(await api.kvView({ namespace: 'user', filter }), added)).toBeUndefined();
    }
  });
});
