import { describe, expect, it } from 'vitest';
import { BoundedMap } from './bounded-map.ts';

describe('a map bounded by count', () => {
  it('forgets the oldest-inserted entries first, telling onEvict', () => {
    const evicted: string[] = [];
    const m = new BoundedMap<string, number>(3, (k) => evicted.push(k));
    for (const [i, k] of ['a', 'b', 'c', 'd', 'e'].entries()) m.set(k, i);
    expect([...m.keys()]).toEqual(['c', 'd', 'e']);
    expect(evicted).toEqual(['a', 'b']);
  });

  it('keeps a key set again in its place, like a Map, and a key deleted and set again as the newest', () => {
    const m = new BoundedMap<string, number>(3);
    m.set('a', 1).set('b', 2).set('c', 3);
    m.set('a', 10); // an update: still the oldest
    m.delete('b');
    m.set('b', 20); // deleted and set again: now the newest
    m.set('d', 4);
    expect([...m.entries()]).toEqual([
      ['c', 3],
      ['b', 20],
      ['d', 4],
    ]);
    m.set('e', 5);
    expect([...m.keys()]).toEqual(['b', 'd', 'e']);
  });

  it('stays bounded and exact through many deletes, re-inserts and clears', () => {
    const m = new BoundedMap<number, number>(100);
    const model: number[] = []; // keys, oldest first
    for (let i = 0; i < 50_000; i++) {
      const k = i % 700;
      if (i % 3 === 0 && m.has(k)) {
        m.delete(k);
        model.splice(model.indexOf(k), 1);
      } else {
        if (!m.has(k)) model.push(k);
        m.set(k, i);
        if (model.length > 100) model.shift();
      }
      if (i === 25_000) {
        m.clear();
        model.length = 0;
      }
    }
    expect([...m.keys()]).toEqual(model);
    expect(m.size).toBeLessThanOrEqual(100);
  });
});
