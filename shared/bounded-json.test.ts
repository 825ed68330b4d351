import { describe, expect, it } from 'vitest';
import { JsonTooDeepError, parseBoundedJson } from './bounded-json.ts';

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('parseBoundedJson', () => {
  it('parses bodies up to the depth limit, short or long', () => {
    expect(parseBoundedJson('{"id":"o-1","qty":4}')).toEqual({ id: 'o-1', qty: 4 });
    expect(parseBoundedJson(nested(3), 3)).toEqual([[[]]]);
    expect(parseBoundedJson(`{"pad":"${'x'.repeat(500)}","deep":${nested(127)}}`)).toHaveProperty('deep');
  });

  it('refuses one level past the limit, naming where, however short the text', () => {
    expect(() => parseBoundedJson(nested(4), 3)).toThrow(JsonTooDeepError);
    expect(() => parseBoundedJson(nested(129))).toThrow('deeper than 128 levels (passed at character 128)');
    // Brackets inside strings do not count.
    expect(parseBoundedJson(`["${'['.repeat(300)}"]`)).toEqual(['['.repeat(300)]);
  });

  it('still reports malformed text as JSON.parse does', () => {
    expect(() => parseBoundedJson('{"id":')).toThrow(SyntaxError);
  });
});
