import { describe, expect, it } from 'vitest';
import { BadPathError, joinBasePath, parseRoutePattern } from '../../../../shared/route-pattern.ts';
import { RouteTable, type Routable } from './route-table.ts';

const route = (flowName: string, path: string, methods?: string[]): Routable => ({ flowName, pattern: parseRoutePattern(path), methods });

function tableOf(...routes: Routable[]): RouteTable<Routable> {
  const table = new RouteTable<Routable>();
  for (const r of routes) table.add(r);
  return table;
}

describe('finding the route for a path', () => {
  it('prefers the more literal route, segment by segment from the left', () => {
    const table = tableOf(route('by-id', '/orders/{id}'), route('new', '/orders/new'), route('any-b', '/{x}/b'), route('a-any', '/a/{y}'));
    expect(table.match('/orders/new')?.routes.forMethod('GET')?.flowName).toBe('new');
    expect(table.match('/orders/17')?.params).toEqual({ id: '17' });
    expect(table.match('/a/b')?.routes.forMethod('GET')?.flowName).toBe('a-any');
  });

  it('decodes parameters and literal segments, and refuses broken percent-encoding', () => {
    const table = tableOf(route('files', '/files/{name}'), route('cafe', '/café'));
    expect(table.match('/files/a%20b%2Fc')?.params).toEqual({ name: 'a b/c' });
    expect(table.match('/caf%C3%A9')?.routes.forMethod('GET')?.flowName).toBe('cafe');
    expect(() => table.match('/files/%E0%A4%A')).toThrow(BadPathError);
  });

  it('does not match an empty parameter or a different number of segments', () => {
    const table = tableOf(route('one', '/orders/{id}'));
    expect(table.match('/orders/')).toBeUndefined();
    expect(table.match('/orders/1/items')).toBeUndefined();
  });

  it('lets GET answer HEAD unless a flow serves HEAD itself', () => {
    const table = tableOf(route('get', '/x', ['GET']), route('head', '/y', ['GET']), route('own-head', '/y', ['HEAD']));
    expect(table.match('/x')?.routes.forMethod('HEAD')?.flowName).toBe('get');
    expect(table.match('/y')?.routes.forMethod('HEAD')?.flowName).toBe('own-head');
  });

  it('refuses a second flow on a method and path shape already taken, naming both', () => {
    const table = tableOf(route('all', '/x'));
    expect(() => table.add(route('get', '/x', ['GET']))).toThrow('GET /x is already served by flow "all" (/x); flows "all" and "get" cannot both serve it');
  });
});

describe('route paths', () => {
  it('joins the basePath however it is slashed', () => {
    expect(joinBasePath('/api/', '/orders')).toBe('/api/orders');
    expect(joinBasePath('api', '/')).toBe('/api');
    expect(joinBasePath(undefined, '/orders')).toBe('/orders');
  });

  it('explains a malformed pattern', () => {
    expect(() => parseRoutePattern('/a/{b}.json')).toThrow('"{b}.json" is not a parameter; a parameter is a whole segment like {id}');
    expect(() => parseRoutePattern('/a/{b}/{b}')).toThrow('names parameter {b} twice');
    expect(() => parseRoutePattern('/a?x=1')).toThrow('must not contain a query');
  });
});
