import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOOPBACK, serveYaml, type Served } from './test-support/serve-yaml.ts';

// Spec 2 §3.1 and §7: a validation filter's rejection answers its own 4xx with its own body
// before any frame; it is not a flow failure (no 500, no error chain).
describe('a jwt-verify rejection over HTTP', () => {
  let s: Served;
  beforeAll(async () => {
    s = await serveYaml(`${LOOPBACK}flows:
  guarded:
    source: {type: http, path: /guarded, headers: [Authorization]}
    steps:
      - set: {vars: {httpStatus: '"201"'}}
      - jwt-verify: {secret: a-shared-secret-of-enough-length-for-hs256}
      - set: {body: '"welcome"'}
    onError:
      - set: {vars: {httpStatus: '"503"'}, body: '"the error chain ran"'}
  guarded-stream:
    source: {type: http, path: /guarded-stream, headers: [Authorization], sse: {enabled: true}}
    steps:
      - jwt-verify: {secret: a-shared-secret-of-enough-length-for-hs256}
      - sse-event: {data: '"hello"'}
`);
  });
  afterAll(() => s.stop());

  it('answers 401 with the reason, and runs no error chain', async () => {
    const missing = await fetch(`${s.url}/guarded`);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ error: 'missing Authorization header' });
    const forged = await fetch(`${s.url}/guarded`, { headers: { authorization: 'Bearer not.a.jwt' } });
    expect(forged.status).toBe(401);
    expect((await forged.json()).error).toMatch(/^invalid token: /);
  });

  it('answers 401 as an ordinary response on an SSE route, before any frame', async () => {
    const res = await fetch(`${s.url}/guarded-stream`);
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({ error: 'missing Authorization header' });
  });
});
