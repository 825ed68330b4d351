import { describe, expect, it } from 'vitest';
import { diffValues, pathText } from './json-diff.ts';

describe('what a step changed', () => {
  it('lists added, removed and changed leaves by path', () => {
    const changes = diffValues({ a: 1, list: [1, 2], gone: true, same: { x: 1 } }, { a: 2, list: [1, 2, 3], same: { x: 1 }, added: 'y' }, ['body']);
    expect(changes.map((c) => [pathText(c.path), c.kind])).toEqual([
      ['body.a', 'changed'],
      ['body.list[2]', 'added'],
      ['body.gone', 'removed'],
      ['body.added', 'added'],
    ]);
  });

  it('treats a value cut for display as one value', () => {
    const cut = (n: number) => ({ $truncated: { preview: 'ab', length: n, path: ['body'] } });
    expect(diffValues(cut(10), cut(10))).toEqual([]);
    expect(diffValues(cut(10), cut(11))).toHaveLength(1);
  });
});
