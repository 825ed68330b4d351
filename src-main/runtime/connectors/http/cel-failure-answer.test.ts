import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOOPBACK, serveYaml, type Served } from './test-support/serve-yaml.ts';

// docs/flows.md, CEL: what depends on the message fails that message, and the answer says what
// went wrong without repeating the expression, which the client has no business reading.
describe('a flow whose CEL fails on the message it got', () => {
  let s: Served;
  beforeAll(async () => {
    s = await serveYaml(`${LOOPBACK}flows:
  total:
    source: {type: http, path: /total, methods: [POST]}
    steps:
      - set: {body: '{"total": body.price_internal_cents * body.quantity + 1}'}
`);
  });
  afterAll(() => s.stop());

  it('answers 500 with the error, and none of the expression’s text', async () => {
    const ok = await fetch(`${s.url}/total`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"price_internal_cents": 5, "quantity": 2}' });
    expect(await ok.json()).toEqual({ total: 11 });
    const res = await fetch(`${s.url}/total`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"price_internal_cents": "five", "quantity": 2}' });
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text).error).toMatch(/no such overload/);
    expect(text).not.toContain('price_internal_cents');
    expect(text).not.toContain('"total"');
  });
});
