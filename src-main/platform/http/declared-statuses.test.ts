import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Type } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineRoute } from '../../../shared/platform-api/route.ts';
import { implement } from './contract-route.ts';
import { guardDeclaredStatuses } from './declared-statuses.ts';
import { sendError, sendJson } from './http-io.ts';
import { ApiError } from './api-error.ts';
import type { Route } from './router.ts';

// A route declared to answer 200 (plus the common statuses) whose handler answers 404 or 418
// as the query asks: the mistake the check exists to catch.
const misdeclared = defineRoute({
  operationId: 'misdeclared',
  method: 'GET',
  path: '/v1/misdeclared',
  tag: 'test',
  summary: 'Declares 200 only',
  responses: { 200: { description: 'Found.', content: { 'application/json': Type.Object({ found: Type.Boolean() }) } } },
});

const route: Route = implement(misdeclared, { capability: 'test', enabled: true }, (ctx) => {
  const answer = new URLSearchParams(ctx.req.url!.split('?')[1]).get('answer');
  if (answer === '404') throw new ApiError(404, 'entry_not_found', 'no such thing');
  sendJson(ctx.res, answer === '418' ? 418 : 200, { found: true });
});

const reported: Error[] = [];
let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    guardDeclaredStatuses(res, route, (err) => reported.push(err));
    (async () => route.handle({ req, res, params: {}, query: new URLSearchParams() }))().catch((err: unknown) => sendError(res, err as ApiError));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/misdeclared`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('a route answering a status its declaration does not list', () => {
  it('passes a declared status through untouched', async () => {
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ found: true });
    expect(reported).toEqual([]);
  });

  it('turns an undeclared success status into a 500 and reports which route and status', async () => {
    expect((await fetch(`${url}?answer=418`)).status).toBe(500);
    expect(reported.pop()?.message).toBe(
      'GET /v1/misdeclared answered 418, which its declaration (misdeclared in shared/platform-api/) does not list: declare it there, or answer a declared status',
    );
  });

  it('catches an undeclared error status too (a 404 the route never declared)', async () => {
    expect((await fetch(`${url}?answer=404`)).status).toBe(500);
    expect(reported.pop()?.message).toContain('answered 404');
  });

  it('leaves the statuses every route shares declared: 400, 401, 413 (a Content-Length over its limit), 500 and, under /v1, 501', () => {
    expect([...misdeclared.statuses].sort()).toEqual([200, 400, 401, 413, 500, 501]);
  });
});
