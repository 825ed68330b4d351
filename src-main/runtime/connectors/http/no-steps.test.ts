import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOOPBACK, serveYaml, type Served } from './test-support/serve-yaml.ts';

// docs/flows.md: `steps` defaults to `[]`, so a flow may leave it out.
describe('a flow without steps', () => {
  let s: Served;
  beforeAll(async () => {
    s = await serveYaml(`${LOOPBACK}flows:
  echo:
    source: {type: http, path: /echo}
`);
  });
  afterAll(() => s.stop());

  it('runs, answering with the request body unchanged', async () => {
    const res = await fetch(`${s.url}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"n": 1}' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ n: 1 });
  });
});
