import { describe, expect, it } from 'vitest';
import type { DesignCelFunction } from '../../../../shared/flow-design.ts';
import { celHover } from './cel-hover.ts';

const functions: DesignCelFunction[] = [
  { name: 'size', signature: 'size(list): int', description: 'Length.', kind: 'function' },
  { name: 'size', signature: 'string.size(): int', description: 'Length.', kind: 'method', receiver: 'string' },
  { name: 'charAt', signature: 'string.charAt(int): string', description: 'A character.', kind: 'method', receiver: 'string', example: "'ab'.charAt(1) → 'b'" },
  { name: 'math.greatest', signature: 'math.greatest(dyn, ...): dyn', description: 'The greatest.', kind: 'function', example: 'math.greatest(1, 2) → 2' },
];

/** Hover at the `|` in the expression. */
const at = (marked: string) => {
  const i = marked.indexOf('|');
  return celHover(marked.slice(0, i), marked.slice(i + 1), functions);
};

describe('CEL hover', () => {
  it('documents a namespaced function, on its name or on the namespace, spanning both', () => {
    const h = at('1 + math.gre|atest(body.a, 2)');
    expect(h).toMatchObject({ name: 'math.greatest', start: -8, end: 5 });
    expect(h?.markdown).toBe('```\nmath.greatest(dyn, ...): dyn\n```\nThe greatest.\n\nExample: `math.greatest(1, 2) → 2`');
    expect(at('ma|th.greatest(1)')).toMatchObject({ name: 'math.greatest', start: -2, end: 11 });
  });

  it('documents a method after a dot and a global function elsewhere', () => {
    expect(at("body.name.char|At(0) == 'a'")?.markdown).toContain('string.charAt(int): string');
    expect(at('si|ze(body.items)')?.markdown).toContain('size(list): int');
    expect(at('body.items.si|ze()')?.markdown).toContain('string.size(): int');
  });

  it('says nothing over variables, fields and numbers', () => {
    expect(at('bo|dy.name')).toBeUndefined();
    expect(at('body.na|me')).toBeUndefined();
    expect(at('1|2 + 3')).toBeUndefined();
  });
});
