import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../shared/bounded-json.ts';
import { startTestPlatform, type TestPlatform } from './testing/platform-harness.ts';

/** Issue 18 item 2: ~5,000 levels (a 10 KB body) used to answer 500 "Maximum call stack size exceeded". */
let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.close());

const deep = (levels: number): string => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
const deepArray = (levels: number): string => '['.repeat(levels) + ']'.repeat(levels);

describe('deeply nested JSON is a 400 json_too_deep on every route that reads JSON', () => {
  const routes: Array<[string, string, (inner: string) => string]> = [
    ['POST', '/v1/queues/deep/publish', (inner) => `{"body":${inner}}`],
    ['POST', '/v1/topics/deep/publish', (inner) => `{"body":${inner}}`],
    ['POST', '/v1/queues/deep/request', (inner) => `{"body":${inner},"timeoutSeconds":1}`],
    ['POST', '/v1/agent-memory/a/threads/t/turns', (inner) => `{"turns":[{"role":"user","content":${inner}}]}`],
    ['PUT', '/v1/agent-memory/a/users/u/memories?name=m', (inner) => inner],
    ['POST', '/v1/traces', (inner) => `{"records":[${inner}]}`],
    ['POST', '/v1/logs', (inner) => `{"records":[${inner}]}`],
    ['POST', '/v1/leases/acquire', (inner) => `{"leaseId":"l","ttlSeconds":5,"x":${inner}}`],
    ['PUT', '/deployments/deep', (inner) => `{"tag":${inner}}`],
  ];
  for (const [method, path, wrap] of routes) {
    it(`${method} ${path}`, async () => {
      for (const inner of [deep(5000), deepArray(5000)]) {
        const res = await platform.call(method, path, { body: wrap(inner), headers: { 'content-type': 'application/json' } });
        expect(res.status, res.text.slice(0, 200)).toBe(400);
        expect(res.code).toBe('json_too_deep');
        expect(res.message).toContain(`${MAX_JSON_DEPTH} levels`);
      }
    });
  }

  it('accepts nesting up to the limit', async () => {
    const res = await platform.call('POST', '/v1/queues/shallow/publish', { body: `{"body":${deep(MAX_JSON_DEPTH - 1)}}` });
    expect(res.status).toBe(202);
  });
});
