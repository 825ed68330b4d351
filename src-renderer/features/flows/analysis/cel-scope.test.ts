import { describe, expect, it } from 'vitest';
import { celScope } from './cel-scope.ts';
import { fixtureSpecs } from './reference-fixture.ts';
import { parseDefinition } from './yaml-nodes.ts';

const text = `flows:
  orders:
    source:
      type: http
      path: /orders/{orderId}/lines/{line}
      headers: [X-Tenant]
    steps:
      - set: {vars: {total: body.a}}
      - switch:
          cases:
            - when: "true"
              steps:
                - kv-get: {key: '"a"', resultVar: stock}
                - log: {message: vars.stock}
            - when: "false"
              steps:
                - log: {message: x}
      - rest: {connector: api}
      - log: {message: x}
    onError:
      - log: {message: vars.error.message}
`;
const names = (step?: string) => celScope(parseDefinition(text), fixtureSpecs, 'orders', step).vars.map((v) => v.name);

describe('the variables known at a step', () => {
  it('start with what the route puts in vars: path parameters, method, query and copied headers', () => {
    expect(names(undefined)).toEqual(['orderId', 'line', 'method', 'query', 'X-Tenant']);
    expect(celScope(parseDefinition(text), fixtureSpecs, 'orders', undefined).vars[0].origin).toBe('path parameter of /orders/{orderId}/lines/{line}');
  });

  it('add what earlier steps set, but not what later steps or other branches set', () => {
    expect(names('flows.orders.steps[0]')).not.toContain('total');
    expect(names('flows.orders.steps[1].switch.cases[0].steps[1]')).toEqual(expect.arrayContaining(['total', 'stock']));
    expect(names('flows.orders.steps[1].switch.cases[1].steps[0]')).not.toContain('stock');
  });

  it('after a block, include its result variables, written or default', () => {
    expect(names('flows.orders.steps[3]')).toEqual(expect.arrayContaining(['total', 'stock', 'statusCode']));
  });

  it('in the error chain, include everything the steps may have set and the error', () => {
    const scope = celScope(parseDefinition(text), fixtureSpecs, 'orders', 'flows.orders.onError[0]');
    expect(scope.inErrorChain).toBe(true);
    expect(scope.vars.map((v) => v.name)).toEqual(expect.arrayContaining(['orderId', 'total', 'stock', 'statusCode', 'error']));
  });
});
