import { describe, expect, it } from 'vitest';
import { CEL_FUNCTIONS } from '../../../../shared/cel-functions.ts';
import { createCelEnvironment } from '../cel.ts';
import { CEL_IMPLEMENTATIONS, celJsSignatures, MAX_VARIADIC_ARGUMENTS } from './bind-libraries.ts';

const env = createCelEnvironment();
const run = (source: string, activation: Record<string, unknown> = {}): unknown => env.compile(source).evaluate(activation);

describe('CEL extension libraries (shared/cel-functions.ts bound by cel.ts)', () => {
  it.each(CEL_FUNCTIONS.map((f) => [f.name, f.example.expression, f.example.result]))('%s: %s is %s', (_name, expression, result) => {
    expect(run(`(${expression}) == (${result})`, { vars: {} })).toBe(true);
  });

  it('binds exactly the declared overloads: each has one implementation, each implementation is declared', () => {
    const declared = CEL_FUNCTIONS.filter((f) => !f.builtin).flatMap((f) => f.overloads);
    expect(declared.filter((o) => !CEL_IMPLEMENTATIONS[o])).toEqual([]);
    expect(Object.keys(CEL_IMPLEMENTATIONS).filter((o) => !declared.includes(o))).toEqual([]);
    expect(new Set(CEL_FUNCTIONS.map((f) => `${f.library}:${f.name}`)).size).toBe(CEL_FUNCTIONS.length);
  });

  it('expands a variadic overload to cel-js signatures on the namespace type', () => {
    const signatures = celJsSignatures('math.greatest(dyn, ...): dyn');
    expect(signatures).toHaveLength(MAX_VARIADIC_ARGUMENTS);
    expect(signatures[0]).toBe('MathNamespace.greatest(dyn): dyn');
    expect(signatures[2]).toBe('MathNamespace.greatest(dyn, dyn, dyn): dyn');
    expect(celJsSignatures('string.charAt(int): string')).toEqual(['string.charAt(int): string']);
  });

  describe('in mappings over a JSON message', () => {
    const body = {
      customer: { first: 'ada', last: 'LOVELACE', email: ' Ada@Example.com ' },
      items: [
        { sku: 'a-1', qty: 2, price: 4.5 },
        { sku: 'b-2', qty: 0, price: 12 },
      ],
      headers: { 'content-type': 'application/json', 'x-trace': 'abc' },
      createdAt: '2025-03-30T00:30:00Z',
    };

    it('strings: casing, trimming, splitting, formatting', () => {
      expect(run("body.customer.email.trim().lowerAscii()", { body })).toBe('ada@example.com');
      expect(run("'%s %s'.format([body.customer.first.upperAscii(), body.customer.last.lowerAscii()])", { body })).toBe('ADA lovelace');
      expect(run("body.items.map(i, i.sku.split('-')[0]).join('|')", { body })).toBe('a|b');
      expect(run("'total: %.2f'.format([body.items.map(i, i.qty * i.price)[0]])", { body })).toBe('total: 9.00');
      expect(run("'héllo wörld'.charAt(7) + 'héllo'.substring(1, 3) + 'αβγ'.reverse()", { body })).toBe('öélγβα');
    });

    it('math on JSON numbers (doubles) and CEL ints', () => {
      expect(run('math.greatest(body.items.map(i, i.price))', { body })).toBe(12);
      expect(run('math.round(body.items[0].price) + math.least(1, 2)', { body })).toBe(6);
      expect(run('math.bitOr(math.bitShiftLeft(1, 3), 1)')).toBe(9);
      expect(() => run('math.abs(-9223372036854775807 - 1)')).toThrow(/overflow/);
    });

    it('optionals: safe navigation and optional entries', () => {
      expect(run("body.?customer.?phone.orValue('none')", { body })).toBe('none');
      expect(run("{'email': body.customer.email.trim(), ?'phone': body.customer.?phone}", { body })).toEqual({ email: ' Ada@Example.com '.trim() });
      expect(run('[1, ?optional.ofNonZeroValue(body.items[1].qty), ?optional.of(3)]', { body })).toEqual([1, 3]);
      expect(run("body.headers.?`content-type`.orValue('')", { body })).toBe('application/json');
    });

    it('two-variable comprehensions over lists and maps', () => {
      expect(run('body.items.transformList(i, item, item.qty > 0, string(i) + ":" + item.sku)', { body })).toEqual(['0:a-1']);
      expect(run("body.headers.transformMap(k, v, k.startsWith('x-'), v.upperAscii())", { body })).toEqual({ 'x-trace': 'ABC' });
      expect(run('body.headers.transformMapEntry(k, v, {v: k})', { body })).toEqual({ 'application/json': 'content-type', abc: 'x-trace' });
      expect(run('body.items.all(i, item, item.price > 0) && body.items.existsOne(i, item, item.qty == 0)', { body })).toBe(true);
      expect(() => run("{'a': 'x', 'b': 'x'}.transformMapEntry(k, v, {v: k})")).toThrow(/duplicate map key/);
    });

    it('bindings: cel.bind and cel.block evaluate a subexpression once', () => {
      expect(run('cel.bind(n, body.items.size(), n * n + n)', { body })).toBe(6);
      expect(run('cel.block([body.items.map(i, i.qty), math.greatest(cel.index(0))], cel.index(1) * 10)', { body })).toBe(20);
    });

    it('time zones: IANA names and fixed offsets, daylight saving included', () => {
      expect(run("timestamp(body.createdAt).getHours('Europe/Paris')", { body })).toBe(1);
      expect(run("timestamp('2025-03-30T01:30:00Z').getHours('Europe/Paris')")).toBe(3);
      expect(run("timestamp(body.createdAt).getDate('-05:30')", { body })).toBe(29);
      expect(run("timestamp(body.createdAt).getMinutes('+05:45')", { body })).toBe(15);
      expect(() => run("timestamp(body.createdAt).getHours('Mars/Olympus')", { body })).toThrow(/time zone/);
      expect(run("string(timestamp(body.createdAt) + duration('90m'))", { body })).toBe('2025-03-30T02:00:00Z');
      expect(run("base64.encode(bytes(body.customer.first))", { body })).toBe('YWRh');
    });

    it('time zones do not depend on the zone of the machine evaluating them', () => {
      const saved = process.env.TZ;
      try {
        // 02:30 in New York on the night Berlin skips 02:00–03:00: a wall-clock time that does
        // not exist on a machine in Berlin.
        for (const tz of ['Europe/Berlin', 'America/Los_Angeles', 'UTC']) {
          process.env.TZ = tz;
          expect(run("timestamp('2025-03-30T06:30:00Z').getHours('America/New_York')"), tz).toBe(2);
          expect(run("timestamp('2025-03-30T22:30:00Z').getDayOfYear()"), tz).toBe(88);
        }
      } finally {
        if (saved === undefined) delete process.env.TZ;
        else process.env.TZ = saved;
      }
    });
  });
});
