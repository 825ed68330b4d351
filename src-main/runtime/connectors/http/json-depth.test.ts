import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../../../shared/bounded-json.ts';
import { LOOPBACK, serveYaml, type Served } from './test-support/serve-yaml.ts';

const nested = (levels: number): string => '['.repeat(levels) + ']'.repeat(levels);

describe('JSON nesting limit of the http route (issue 18 item 2)', () => {
  let s: Served;
  beforeAll(async () => {
    s = await serveYaml(`${LOOPBACK}flows:
  echo:
    source: {type: http, path: /echo}
    steps:
      - set: {body: 'body'}
`);
  });
  afterAll(() => s.stop());

  it('answers 400 naming the limit to a body nested 5,000 levels deep, without running the flow', async () => {
    const before = s.runs.length;
    const res = await fetch(`${s.url}/echo`, { method: 'POST', body: nested(5000), headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string };
    expect(body.error).toContain('too deeply nested');
    expect(body.error).toContain(String(MAX_JSON_DEPTH));
    expect(s.runs.length).toBe(before);
  });

  it('accepts a body exactly at the limit, and brackets inside strings do not count', async () => {
    const atLimit = await fetch(`${s.url}/echo`, { method: 'POST', body: nested(MAX_JSON_DEPTH) });
    expect(atLimit.status).toBe(200);
    const past = await fetch(`${s.url}/echo`, { method: 'POST', body: nested(MAX_JSON_DEPTH + 1) });
    expect(past.status).toBe(400);
    const text = JSON.stringify({ s: '[[[['.repeat(1000) + '\\"{{' });
    const strings = await fetch(`${s.url}/echo`, { method: 'POST', body: text });
    expect(strings.status).toBe(200);
    expect(await strings.json()).toEqual(JSON.parse(text));
  });
});
