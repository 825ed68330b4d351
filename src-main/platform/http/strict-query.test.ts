import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from './api-error.ts';
import { parseStrictQuery } from './strict-query.ts';

const pairs = (raw: string) => [...parseStrictQuery(raw)];

describe('the platform query string', () => {
  it('reads every name=value pair, skipping empty ones, decoding + and percent-encoding', () => {
    expect(pairs('key=bench')).toEqual([['key', 'bench']]);
    expect(pairs('')).toEqual([]);
    expect(pairs('&&a=1&&b&c=&')).toEqual([['a', '1'], ['b', ''], ['c', '']]);
    expect(pairs('key=a%2Fb+c&key=2')).toEqual([['key', 'a/b c'], ['key', '2']]);
    expect(pairs('k%C3%A9y=%E2%9C%93')).toEqual([['kéy', '✓']]);
  });

  it('answers what URLSearchParams would for any well-formed query', () => {
    const part = fc.stringMatching(/^[a-z0-9+]{0,6}$/);
    const query = fc.array(fc.tuple(part, fc.option(part, { nil: undefined })), { maxLength: 6 }).map((ps) => ps.map(([k, v]) => (v === undefined ? k : `${k}=${v}`)).join('&'));
    fc.assert(
      fc.property(query, (raw) => {
        expect(pairs(raw)).toEqual([...new URLSearchParams(raw)]);
      }),
      { numRuns: 1000 },
    );
  });

  it('refuses broken percent-encoding and bytes that are not UTF-8, naming the parameter', () => {
    const refusal = (raw: string) => {
      try {
        parseStrictQuery(raw);
      } catch (err) {
        return err;
      }
      return undefined;
    };
    expect(refusal('key=%zz')).toBeInstanceOf(ApiError);
    expect((refusal('ok=1&key=%zz') as ApiError).message).toContain('the query parameter "key" is not valid percent-encoding');
    expect((refusal('key=%FF') as ApiError).message).toContain('is not valid UTF-8');
  });
});
