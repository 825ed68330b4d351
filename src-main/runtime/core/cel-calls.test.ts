import { describe, expect, it } from 'vitest';
import { CelCompileError, createCelEnvironment } from './cel.ts';

const env = createCelEnvironment([{ signature: 'secret(string): string', description: 'a platform secret', handler: () => 'x' }]);

function refused(source: string): { message: string; at: string } {
  try {
    env.compile(source);
  } catch (err) {
    expect(err).toBeInstanceOf(CelCompileError);
    const e = err as CelCompileError;
    // `at` is the source from the offset on, so a test reads where the problem points.
    return { message: e.message, at: source.slice(e.offset) };
  }
  throw new Error(`expected ${JSON.stringify(source)} to be refused at compile time`);
}

describe('CEL calls checked when an expression compiles', () => {
  it.each([
    ['sise(body.items)', 'unknown function "sise"; did you mean "size"?', 'sise(body.items)'],
    ['{"n": sise(body.items)}', 'unknown function "sise"; did you mean "size"?', 'sise(body.items)}'],
    ['body.n.noSuchMethod()', 'unknown method "noSuchMethod"', 'noSuchMethod()'],
    ['body.name.upperAcsii()', 'unknown method "upperAcsii"; did you mean "upperAscii"?', 'upperAcsii()'],
    ['math.sise(body.n)', 'unknown function "math.sise"; did you mean "math.sign"?', 'sise(body.n)'],
    ['greatest(1, 2)', 'unknown function "greatest"; did you mean "math.greatest"?', 'greatest(1, 2)'],
    ['startsWith(body.name, "a")', 'unknown function "startsWith"; startsWith is a method: write value.startsWith(…)', 'startsWith(body.name, "a")'],
    ['body.n.int() > 0', 'unknown method "int"; int is a function: write int(…)', 'int() > 0'],
    ['secrte("db")', 'unknown function "secrte"; did you mean "secret"?', 'secrte("db")'],
  ])('%s: an undeclared function or method', (source, message, at) => {
    expect(refused(source)).toEqual({ message, at });
  });

  it.each([
    ['size(body.a, body.b)', 'size() takes 1 argument, got 2'],
    ['body.items.size(1)', '.size() takes 0 arguments, got 1'],
    ['body.items.all(x)', '.all() takes 2 or 3 arguments, got 1'],
    ['body.items.map(x, x, x, x)', '.map() takes 2 or 3 arguments, got 4'],
    ['secret()', 'secret() takes 1 argument, got 0'],
    ['cel.bind(x, 1)', 'cel.bind() takes 3 arguments, got 2'],
    ['math.greatest()', 'math.greatest() takes 1 to 12 arguments, got 0'],
  ])('%s: a wrong number of arguments', (source, message) => {
    expect(refused(source).message).toBe(message);
  });

  it('refuses macro misuse and type errors between literals', () => {
    expect(refused('has(body)').message).toMatch(/has\(\) invalid argument/);
    expect(refused('body.items.all(1, true)').message).toMatch(/invalid predicate iteration variable/);
    expect(refused('1 + "a"')).toEqual({ message: 'no such overload: int + string', at: '1 + "a"' });
    expect(refused('body.ok && "yes" + 1').message).toBe('no such overload: string + int');
  });

  it.each([
    'size(body.items) > 0 && body.items.all(i, i.price > 0)',
    'body.items.map(i, i.price).exists(p, p > 10)',
    'math.greatest(body.items.map(i, i.price))',
    '"%s: %d".format([vars.id, body.count])',
    'body.?customer.?email.orValue("")',
    '{?"phone": body.?phone}',
    'cel.bind(total, body.a + body.b, total * 2)',
    'base64.encode(b"hi") + string(timestamp(body.at).getHours("Europe/Paris"))',
    'body.headers.transformMap(k, v, v.upperAscii())',
    'has(body.x) ? body.x : secret("fallback")',
    'true ? "a" : 1',
  ])('accepts %s', (source) => {
    expect(() => env.compile(source)).not.toThrow();
  });

  it('leaves to run time what depends on the message, and then answers without the expression', () => {
    const compiled = env.compile('body.n + 1');
    let message = '';
    try {
      compiled.evaluate({ body: { n: 'five' } });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toBe('no such overload: dyn<string> + int');
    expect(message).not.toContain('body.n');
  });

  it('lets an environment opt out, for expressions that fail on purpose when evaluated (CEL conformance)', () => {
    const lenient = createCelEnvironment([], undefined, { checkCalls: false });
    expect(lenient.compile('f_unknown(1) || true').evaluate({})).toBe(true);
  });
});
