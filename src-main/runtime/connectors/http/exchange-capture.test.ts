import { afterEach, describe, expect, it } from 'vitest';
import type { HttpExchangeRecord, SseFrameRecord } from '../../core/exchange-hub.ts';
import { LOOPBACK, serveYaml, type Served } from './test-support/serve-yaml.ts';

let served: Served | undefined;
afterEach(async () => {
  await served?.stop();
  served = undefined;
});

describe('watching the requests a server answers', () => {
  it('reports each request with its exact body bytes, route, correlation id and response', async () => {
    served = await serveYaml(`${LOOPBACK}
flows:
  echo:
    source: {type: http, path: '/items/{id}', methods: [POST], correlationIdHeader: X-Request-ID}
    steps:
      - set: {body: '{"id": vars.id, "got": body}'}
`);
    const seen: HttpExchangeRecord[] = [];
    served.runtime.observe({ exchange: (r) => seen.push(r) });
    const bytes = '{"a":  1}';
    const res = await fetch(`${served.url}/items/9?x=1`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-request-id': 'req-1' }, body: bytes });
    expect(await res.json()).toEqual({ id: '9', got: { a: 1 } });
    await expect.poll(() => seen.length).toBe(1);
    const r = seen[0];
    expect(r).toMatchObject({ connector: 'http', flow: 'echo', route: '/items/{id}', method: 'POST', target: '/items/9?x=1', correlationId: 'req-1', status: 200, ended: 'finished' });
    expect(Buffer.from(r.requestBody!).toString()).toBe(bytes);
    expect(r.requestHeaders).toContainEqual(['x-request-id', 'req-1']);
    expect(r.responseHeaders.find(([k]) => k === 'content-type')?.[1]).toBe('application/json');
    expect(JSON.parse(Buffer.from(r.responseBody).toString())).toEqual({ id: '9', got: { a: 1 } });
  });

  it('reports refused requests too, and every frame an event stream writes', async () => {
    served = await serveYaml(`${LOOPBACK}
flows:
  stream:
    source: {type: http, path: /s, methods: [GET], sse: {enabled: true}}
    steps:
      - sse-event: {event: tick, data: '"one"'}
`);
    const seen: HttpExchangeRecord[] = [];
    const frames: SseFrameRecord[] = [];
    served.runtime.observe({ exchange: (r) => seen.push(r), sseFrame: (f) => frames.push(f) });
    expect((await fetch(`${served.url}/nowhere`)).status).toBe(404);
    const res = await fetch(`${served.url}/s`);
    expect(await res.text()).toContain('event: tick');
    await expect.poll(() => seen.length).toBe(2);
    expect(seen[0]).toMatchObject({ status: 404, target: '/nowhere' });
    expect(seen[0].flow).toBeUndefined();
    expect(seen[1]).toMatchObject({ flow: 'stream', status: 200 });
    expect(seen[1].stream).toMatch(/^http:/);
    expect(frames.map((f) => f.frame)).toContain('event: tick\ndata: one\n\n');
  });

  it('records nothing once the observer leaves', async () => {
    served = await serveYaml(`${LOOPBACK}
flows:
  ok:
    source: {type: http, path: /ok}
    steps: []
`);
    const seen: HttpExchangeRecord[] = [];
    const stop = served.runtime.observe({ exchange: (r) => seen.push(r) });
    stop();
    expect(served.runtime.definition.exchanges.active).toBe(false);
    // The server closes out an exchange (where a record would be made) before its client has
    // read the whole body: once the body is in, a record would already be here.
    await (await fetch(`${served.url}/ok`)).text();
    expect(seen).toEqual([]);
  });
});
