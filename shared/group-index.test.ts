import { describe, expect, it } from 'vitest';
import { GroupIndex } from './group-index.ts';

describe('a group index', () => {
  it('gives each key its items oldest first, one or many, and forgets a key when its last item goes', () => {
    const index = new GroupIndex<{ n: number }>();
    const [a, b, c, d] = [1, 2, 3, 4].map((n) => ({ n }));
    index.add('x', a);
    index.add('y', b);
    index.add('x', c);
    index.add('x', d);
    expect(index.get('x')).toEqual([a, c, d]);
    expect(index.get('y')).toEqual([b]);
    expect(index.get('z')).toEqual([]);
    index.remove('x', c);
    expect(index.get('x')).toEqual([a, d]);
    index.remove('x', a);
    expect(index.get('x')).toEqual([d]);
    index.add('x', c);
    expect(index.get('x')).toEqual([d, c]);
    index.remove('x', d);
    index.remove('x', c);
    index.remove('y', a);
    expect(index.get('x')).toEqual([]);
    expect(index.get('y')).toEqual([b]);
    index.clear();
    expect(index.get('y')).toEqual([]);
  });
});
