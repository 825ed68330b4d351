import { describe, expect, it } from 'vitest';
import { loadRegistry } from '../../runtime/index.ts';
import { CelPlayground } from './cel-playground.ts';

const registry = await loadRegistry();

const playground = new CelPlayground(registry);
const sample = { body: { items: [{ price: 2.5, quantity: 4 }], customer: 'ana' }, vars: { id: '42', query: { page: '2' } } };

describe('the CEL playground', () => {
  it('evaluates an expression against the sample message as a flow would, JSON numbers mixing with int literals', async () => {
    expect(await playground.evaluate('body.items.map(i, i.price * i.quantity)[0] + 1', sample)).toEqual({ ok: true, value: 11, type: 'number' });
    expect(await playground.evaluate('{"id": vars.id, "page": int(vars.query.page)}', sample)).toEqual({ ok: true, value: { id: '42', page: 2 }, type: 'map' });
    expect(await playground.evaluate('has(body.total)', sample)).toEqual({ ok: true, value: false, type: 'bool' });
  });

  it('evaluates the extension libraries: strings, math, optionals, two-variable comprehensions, time zones', async () => {
    expect(await playground.evaluate("'%s owes %.2f'.format([body.customer.upperAscii(), math.greatest(body.items.map(i, i.price * i.quantity))])", sample)).toEqual({
      ok: true,
      value: 'ANA owes 10.00',
      type: 'string',
    });
    expect(await playground.evaluate("vars.?query.?size.orValue('20')", sample)).toEqual({ ok: true, value: '20', type: 'string' });
    expect(await playground.evaluate('vars.query.transformMap(k, v, int(v) + 1)', sample)).toEqual({ ok: true, value: { page: 3 }, type: 'map' });
    expect(await playground.evaluate("timestamp('2025-06-01T12:00:00Z').getHours('Asia/Kolkata')", sample)).toEqual({ ok: true, value: 17, type: 'number' });
  });

  it('says where a syntax error is, as an offset into the expression', async () => {
    const r = await playground.evaluate('body.total > > 3', sample);
    expect(r).toMatchObject({ ok: false, stage: 'compile', offset: 13 });
  });

  it('reports an evaluation error with its message', async () => {
    expect(await playground.evaluate('body.missing.deeper', sample)).toMatchObject({ ok: false, stage: 'evaluate', error: expect.stringContaining('missing') });
  });

  it('never reads a secret into the window', async () => {
    const r = await playground.evaluate('secret("api-token")', sample);
    expect(r).toEqual({ ok: false, stage: 'evaluate', error: 'secret() is not evaluated in the playground; run the flow to see its value' });
  });
});
