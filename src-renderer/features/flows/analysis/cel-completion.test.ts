import { describe, expect, it } from 'vitest';
import type { DesignCelFunction } from '../../../../shared/flow-design.ts';
import { celSuggestions, sampleValue } from './cel-completion.ts';
import type { CelScope } from './cel-scope.ts';

const functions: DesignCelFunction[] = [
  { name: 'size', signature: 'size(list): int', description: 'Length.', kind: 'function' },
  { name: 'has', signature: 'has(expr): bool', description: 'Present.', kind: 'function' },
  { name: 'startsWith', signature: 'string.startsWith(string): bool', description: '', kind: 'method', receiver: 'string' },
  { name: 'map', signature: 'list.map(expr, expr): list', description: '', kind: 'method', receiver: 'list' },
  { name: 'secret', signature: 'secret(string): string', description: 'A secret.', kind: 'function', ours: true },
  { name: 'math.greatest', signature: 'math.greatest(dyn, ...): dyn', description: 'The greatest.', kind: 'function', example: 'math.greatest(1, 2) → 2', library: 'math' },
  { name: 'math.abs', signature: 'math.abs(int): int', description: 'Absolute.', kind: 'function', library: 'math' },
  { name: 'charAt', signature: 'string.charAt(int): string', description: 'A character.', kind: 'method', receiver: 'string', example: "'ab'.charAt(1) → 'b'", library: 'strings' },
];
const scope: CelScope = {
  vars: [
    { name: 'orderId', origin: 'path parameter of /orders/{orderId}' },
    { name: 'X-Tenant', origin: 'request header the route copies' },
  ],
  inErrorChain: false,
};
const sample = { body: { customer: { name: 'ana' }, items: [1] }, vars: { query: { page: '2' } } };
const labels = (prefix: string) => celSuggestions(prefix, scope, functions, sample).map((s) => s.label);

describe('CEL completion', () => {
  it('after vars. offers the route’s path parameters and copied headers, a header in brackets', () => {
    const items = celSuggestions('size(body) > 0 && vars.', scope, functions);
    expect(items.filter((i) => i.kind === 'field').map((i) => i.label)).toEqual(['orderId', 'X-Tenant']);
    expect(items.find((i) => i.label === 'X-Tenant')).toMatchObject({ insertText: '["X-Tenant"]', replace: 1 });
    expect(celSuggestions('vars.ord', scope, functions)[0]).toMatchObject({ label: 'orderId', replace: 3 });
  });

  it('after body. offers the sample’s fields, and the methods of the value', () => {
    expect(labels('body.')).toEqual(expect.arrayContaining(['customer', 'items']));
    expect(labels('body.customer.')).toContain('name');
    expect(labels('vars.query.')).toContain('page');
    expect(labels('body.items.')).toContain('map');
    expect(labels('body.items.')).not.toContain('startsWith');
  });

  it('elsewhere offers the message’s names, every function (ours too) and literals', () => {
    expect(labels('')).toEqual(expect.arrayContaining(['body', 'vars', 'correlationID', 'size', 'has', 'secret', 'true']));
    expect(labels('x > ')).not.toContain('error');
    expect(celSuggestions('', { vars: [], inErrorChain: true }, functions).map((s) => s.label)).toContain('error');
    expect(celSuggestions('si', scope, functions).find((s) => s.label === 'size')).toMatchObject({ insertText: 'size($0)', snippet: true, replace: 2 });
  });

  it('after a namespace offers its functions, documented with their example', () => {
    const items = celSuggestions('1 + math.gr', scope, functions);
    expect(items.map((i) => i.label)).toEqual(['greatest', 'abs']);
    expect(items[0]).toMatchObject({ kind: 'function', insertText: 'greatest($0)', replace: 2, documentation: 'The greatest.\n\nExample: `math.greatest(1, 2) → 2`' });
    expect(labels('body.customer.name.')).toContain('charAt');
  });

  it('stays quiet inside a string literal', () => {
    expect(labels('"vars.')).toEqual([]);
  });

  it('reads sample values by path, brackets included', () => {
    expect(sampleValue({ body: { a: [{ b: 1 }] }, vars: { 'X-T': 'x' } }, 'body.a[0].b')).toBe(1);
    expect(sampleValue({ body: null, vars: { 'X-T': 'x' } }, 'vars["X-T"]')).toBe('x');
  });
});
