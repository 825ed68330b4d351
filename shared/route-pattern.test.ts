import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BadPathError, compareSpecificity, matchSegments, parseRoutePattern, pathSegments, urlPath } from './route-pattern.ts';

const parts = (path: string) => path.split('/').slice(1);

describe('the one {name} rule set for routes', () => {
  it('matches whole-segment parameters, decoding each once, and no empty ones', () => {
    expect(matchSegments(parseRoutePattern('/v1/queues/{subject}/publish'), parts('/v1/queues/orders%2Fnew%2520x/publish'))).toEqual({ subject: 'orders/new%20x' });
    expect(matchSegments(parseRoutePattern('/jobs/{job}'), parts('/jobs/'))).toBeUndefined();
  });

  it('orders a more literal template first', () => {
    const sorted = ['/v1/queues/{subject}', '/v1/queues/reply'].map(parseRoutePattern).sort(compareSpecificity);
    expect(sorted.map((p) => p.text)).toEqual(['/v1/queues/reply', '/v1/queues/{subject}']);
  });

  it('names the parameter whose percent-encoding is broken', () => {
    const err = (() => {
      try {
        matchSegments(parseRoutePattern('/v1/queues/{subject}/publish'), parts('/v1/queues/%zz/publish'));
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(BadPathError);
    expect((err as BadPathError).message).toBe('the path parameter subject is not valid percent-encoding: "%zz"');
  });

  it('refuses a parameter that is not a whole segment, and one named twice', () => {
    expect(() => parseRoutePattern('/files/{name}.txt')).toThrow('"{name}.txt" is not a parameter');
    expect(() => parseRoutePattern('/a/{x}/b/{x}')).toThrow('names parameter {x} twice');
  });

  it('splits a request path into the segments split("/") gives, empty ones and all', () => {
    expect(pathSegments('/v1/kv/user/entry')).toEqual(['v1', 'kv', 'user', 'entry']);
    expect(pathSegments('/')).toEqual(['']);
    expect(pathSegments('/jobs/')).toEqual(['jobs', '']);
    expect(pathSegments('//a//')).toEqual(['', 'a', '', '']);
    expect(pathSegments('')).toEqual([]);
    expect(pathSegments('*')).toEqual([]);
    fc.assert(
      fc.property(fc.stringMatching(/^[/a-z%2F.]{0,24}$/), (path) => {
        expect(pathSegments(path)).toEqual(parts(path));
      }),
      { numRuns: 2000 },
    );
  });

  it("takes a request URL's path without its query", () => {
    expect(urlPath('/orders/7?x=1&y=?')).toBe('/orders/7');
    expect(urlPath('/orders/7')).toBe('/orders/7');
    expect(urlPath('/?')).toBe('/');
  });
});
