import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from './testing/platform-harness.ts';

/**
 * Issue 18, "Done when": random nested JSON bodies, random bytes in every query parameter and
 * random X-Object-Version strings against every route of shared/platform-openapi.json. No
 * answer may be a 5xx (but the 503/504 that /request defines), the server may report no
 * internal error, and it must still answer afterwards. Bounded: 4 cases per operation and
 * attack, about 1,000 requests, with the long polls' waits set to 0 so none of them holds a case.
 */
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  $ref?: string;
}
interface Operation {
  parameters?: Parameter[];
}
const doc = JSON.parse(readFileSync(new URL('../../shared/platform-openapi.json', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, Operation | Parameter[]>>;
  components: { parameters: Record<string, Parameter> };
};
const resolve = (p: Parameter): Parameter => (p.$ref ? doc.components.parameters[p.$ref.split('/').pop()!] : p);

const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  (['get', 'put', 'post', 'delete'] as const)
    .filter((m) => item[m] !== undefined)
    .map((m) => {
      const shared = (item.parameters as Parameter[] | undefined) ?? [];
      const own = (item[m] as Operation).parameters ?? [];
      const query = [...shared, ...own].map(resolve).filter((p) => p.in === 'query').map((p) => p.name);
      return { method: m.toUpperCase(), path, query: [...new Set([...query, 'key', 'name', 'userId'])] };
    }),
);

const hex = (b: number): string => `%${b.toString(16).padStart(2, '0').toUpperCase()}`;
/** Arbitrary bytes, percent-encoded: mostly not UTF-8. */
const randomBytes = fc.uint8Array({ minLength: 0, maxLength: 12 }).map((bytes) => [...bytes].map(hex).join(''));
const queryValue = fc.oneof(
  randomBytes,
  fc.string({ maxLength: 16 }).map(encodeURIComponent),
  fc.constantFrom('%', '%Z', '%E0%A4%A', '%C3%28', '%ED%A0%80', '+', '%00'),
);
/** "." and ".." are removed by URL resolution, so the request would address another path. */
const notDotSegment = (s: string): boolean => s !== '.' && s !== '..';
/** A non-empty path segment (an empty one would not address the route). */
const segment = fc.oneof(
  fc.uint8Array({ minLength: 1, maxLength: 8 }).map((bytes) => [...bytes].map(hex).join('')),
  fc.string({ minLength: 1, maxLength: 16 }).map(encodeURIComponent).filter(notDotSegment),
);
const printable = fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 24 });
const objectVersion = fc.option(
  fc.oneof(
    fc.stringMatching(/^[0-9]{0,25}$/),
    fc.constantFrom('', '0', '-1', '9223372036854775807', '9223372036854775808', '1e3', '0x10', '1.0', '00000000000000000000001'),
    printable,
  ),
  { nil: undefined },
);
const deepJson = fc
  .record({ depth: fc.integer({ min: 50, max: 6000 }), open: fc.constantFrom('[', '{"a":', '{"body":') })
  .map(({ depth, open }) => open.repeat(depth) + '1' + (open === '[' ? ']' : '}').repeat(depth));
const body = fc.oneof(
  { arbitrary: deepJson, weight: 3 },
  fc.jsonValue({ maxDepth: 6 }).map((v) => JSON.stringify(v)),
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify({ body: v, turns: [v], records: [v], value: v, content: v })),
  deepJson,
  fc.constant(''),
  fc.string({ maxLength: 40 }),
);

let platform: TestPlatform;
const internalErrors: string[] = [];
beforeAll(async () => {
  platform = await startTestPlatform({
    features: { queues: { pollTimeoutSeconds: 0, maxRequestTimeoutSeconds: 0 }, topics: { pollTimeoutSeconds: 0 } },
    onInternalError: (err, where) => internalErrors.push(`${where}: ${err.message}`),
  });
});
afterAll(() => platform.close());

/** A printable, valid value: the part of a case that is not under attack stays well-formed. */
const validSegment = fc.string({ unit: fc.constantFrom(...'abcxyz019-_.'), minLength: 1, maxLength: 10 }).filter(notDotSegment);

interface Attack {
  segments: fc.Arbitrary<string>;
  queryValue: fc.Arbitrary<string>;
  version: fc.Arbitrary<string | undefined>;
  body: fc.Arbitrary<string>;
}
const attacks: Record<string, Attack> = {
  'random nested JSON bodies': { segments: validSegment, queryValue: validSegment, version: fc.constant(undefined), body },
  'random bytes in every query parameter': { segments: validSegment, queryValue, version: fc.constant(undefined), body: fc.constantFrom('{}', '{"body":{"a":1}}') },
  'random X-Object-Version strings': { segments: validSegment, queryValue: validSegment, version: objectVersion, body: fc.constantFrom('{}', '"x"', '{"content":"c"}') },
  'everything at once': { segments: segment, queryValue, version: objectVersion, body },
};

describe('hostile input against every route of the OpenAPI document (property)', () => {
  for (const [name, attack] of Object.entries(attacks)) {
    it(`${name}: ${operations.length} operations, no 5xx, no internal error`, async () => {
      expect(operations.length).toBeGreaterThan(50);
      for (const op of operations) {
        const names = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
        await fc.assert(
          fc.asyncProperty(
            fc.array(attack.segments, { minLength: names.length, maxLength: names.length }),
            fc.array(fc.tuple(fc.constantFrom(...op.query), attack.queryValue), { minLength: 1, maxLength: 4 }),
            attack.version,
            attack.body,
            async (segments, query, version, text) => {
              let i = 0;
              const path = op.path.replace(/\{[^}]+\}/g, () => segments[i++]);
              const search = '?' + query.map(([k, v]) => `${k}=${v}`).join('&');
              const headers: Record<string, string> = { 'content-type': 'application/json', ...(version === undefined ? {} : { 'x-object-version': version }) };
              const res = await platform.call(op.method, path + search, { headers, ...(op.method === 'GET' ? {} : { body: text }) });
              const allowed = op.path.endsWith('/request') && (res.status === 503 || res.status === 504);
              if (res.status >= 500 && !allowed) throw new Error(`${op.method} ${path}${search} answered ${res.status}: ${res.text.slice(0, 300)}`);
            },
          ),
          { numRuns: 4, seed: 1818 + operations.indexOf(op) },
        );
      }
      expect(internalErrors).toEqual([]);
      expect((await platform.call('GET', '/v1/discovery')).status).toBe(200);
    }, 60_000);
  }
});
