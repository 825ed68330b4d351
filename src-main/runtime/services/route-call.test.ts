import { describe, expect, it } from 'vitest';
import { acquireLease, queueReceive, unsubscribe } from '../../../shared/platform-api/route-addresses.ts';
import type { PlatformRequest, PlatformResponse, PlatformTransport } from './api-http.ts';
import { callRoute, responseJson, routePath } from './route-call.ts';

/** A transport that records the request and answers with a canned JSON body. */
function recording(answer: unknown): { http: PlatformTransport; sent: PlatformRequest[] } {
  const sent: PlatformRequest[] = [];
  const body = Buffer.from(JSON.stringify(answer));
  const res: PlatformResponse = { status: 200, route: 'test', header: () => undefined, body, json: <T>() => JSON.parse(body.toString()) as T };
  return { http: { call: async (req) => (sent.push(req), res), close: async () => {} }, sent };
}

describe('calling a declared route through its address', () => {
  it('takes method and path from the declaration and percent-encodes each path parameter once', async () => {
    const { http, sent } = recording({});
    await callRoute(http, queueReceive, { params: { subject: 'orders/new x' }, json: { consumerGroup: 'g', waitSeconds: 1 } });
    expect(sent[0]).toMatchObject({ method: 'POST', path: '/v1/queues/orders%2Fnew%20x/receive', json: { consumerGroup: 'g', waitSeconds: 1 } });
    expect(routePath(unsubscribe, { subject: 'a', subscriptionId: 's/1' })).toBe('/v1/topics/a/subscriptions/s%2F1');
    expect(() => routePath(unsubscribe, { subject: 'a' } as never)).toThrow('unsubscribe needs the path parameter subscriptionId');
  });

  it('types bodies and answers by the route schemas, so a misspelt field does not compile', async () => {
    const { http } = recording({ acquired: true, leaseId: 'l1', expiresAt: '2026-01-01T00:00:00Z', fencingToken: 1, ttlSeconds: 15 });
    // @ts-expect-error LeaseAcquireRequest has `name`, not `nme`.
    await callRoute(http, acquireLease, { json: { nme: 'n' } });
    const res = await callRoute(http, acquireLease, { json: { name: 'n', ttlSeconds: 15 } });
    const body = responseJson(res, acquireLease, 200);
    // @ts-expect-error LeaseAcquireResponse has `leaseId`, not `leaseID`.
    expect(body.leaseID).toBeUndefined();
    expect(body.acquired && body.leaseId).toBe('l1');
  });
});
