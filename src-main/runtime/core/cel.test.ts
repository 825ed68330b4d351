import { describe, expect, it } from 'vitest';
import { CelCompileError, createCelEnvironment, fromCel } from './cel.ts';

const env = createCelEnvironment();
const interpreterOnly = createCelEnvironment([], undefined, { fastPath: false });
const run = (source: string, activation: Record<string, unknown> = {}): unknown => env.compile(source).evaluate(activation);

function compileError(source: string): CelCompileError {
  try {
    env.compile(source);
  } catch (err) {
    expect(err).toBeInstanceOf(CelCompileError);
    return err as CelCompileError;
  }
  throw new Error(`expected ${JSON.stringify(source)} not to compile`);
}

describe('CEL layer (cel.ts)', () => {
  describe('arithmetic between JSON numbers (doubles) and int literals', () => {
    const body = { count: 2, price: 1.5 };

    it.each([
      ['body.count + 1', 3],
      ['1 + body.count', 3],
      ['body.count - 1', 1],
      ['10 - body.count', 8],
      ['body.count * 3', 6],
      ['3 * body.count', 6],
      ['body.count / 4', 0.5],
      ['8 / body.count', 4],
      ['body.price * 2', 3],
      ['body.count + 1 == 3', true],
      ['body.count + 1 > 2', true],
      // A mixed sum is a double wherever it goes next (these failed with "Cannot mix BigInt" or an int overflow).
      ['1 + body.count + 1', 4],
      ['(1 + 0.5) + 1', 2.5],
      ['2 * body.price * 2', 6],
      ['-(1 + 1e308)', -1e308],
    ])('%s', (source, expected) => {
      expect(run(source, { body })).toBe(expected);
      expect(interpreterOnly.compile(source).evaluate({ body })).toBe(expected);
    });

    it('keeps int arithmetic integral and double arithmetic fractional', () => {
      expect(run('7 / 2')).toBe(3);
      expect(run('body.count / 4 + 0.25', { body })).toBe(0.75);
    });
  });

  describe('compile errors', () => {
    it.each([
      ['body.count +', 12],
      ['a + )', 4],
      ['1 + 2 3', 6],
      ['body..x', 5],
      ['1 +\n  * 2', 6],
    ])('%j fails at offset %i', (source, offset) => {
      const err = compileError(source);
      expect(err.offset).toBe(offset);
      expect(err.message).not.toContain('\n');
      expect(err.message.length).toBeGreaterThan(0);
    });

    it('points at the offending token', () => {
      const source = 'body.count + 1 2';
      expect(source[compileError(source).offset]).toBe('2');
    });
  });

  describe('results', () => {
    it('turns CEL ints (BigInt) and uints into numbers', () => {
      expect(run('1 + 2')).toBe(3);
      expect(run('size([1, 2, 3])')).toBe(3);
      expect(run('7u')).toBe(7);
      expect(run('9007199254740991')).toBe(Number.MAX_SAFE_INTEGER);
      expect(run('-9007199254740991')).toBe(-Number.MAX_SAFE_INTEGER);
    });

    it('turns ints beyond 2^53 into {$numberLong: "<digits>"} without losing digits', () => {
      expect(run('9007199254740993')).toEqual({ $numberLong: '9007199254740993' });
      expect(run('-9007199254740993')).toEqual({ $numberLong: '-9007199254740993' });
      expect(run('9223372036854775807')).toEqual({ $numberLong: '9223372036854775807' });
      expect(run('18446744073709551615u')).toEqual({ $numberLong: '18446744073709551615' });
      expect(run('[9007199254740993]')).toEqual([{ $numberLong: '9007199254740993' }]);
    });

    it('returns lists and maps as plain JSON', () => {
      const list = run("[1, 2.5, 'a', null, {'k': [1u, true]}]");
      expect(list).toEqual([1, 2.5, 'a', null, { k: [1, true] }]);
      expect(JSON.parse(JSON.stringify(list))).toEqual(list);

      const map = run("{'a': 1, 'b': [2, {'c': 3}]}") as Record<string, unknown>;
      expect(Object.getPrototypeOf(map)).toBe(Object.prototype);
      expect(map).toEqual({ a: 1, b: [2, { c: 3 }] });
      expect(JSON.parse(JSON.stringify(map))).toEqual(map);
    });

    it('passes JSON from the activation back unchanged', () => {
      const body = { items: [{ id: 1, tags: ['x'] }], nested: { ok: true } };
      expect(run('body', { body })).toEqual(body);
      expect(run('body.items.map(i, i.id + 1)', { body })).toEqual([2]);
    });

    it('fromCel turns Maps into plain objects with string keys', () => {
      expect(fromCel(new Map<unknown, unknown>([['a', 1n], [2n, [3n]]]))).toEqual({ a: 1, 2: [3] });
    });
  });
});
