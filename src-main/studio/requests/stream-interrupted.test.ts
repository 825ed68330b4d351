import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryEntry, RequestProgress } from '../../../shared/request-types.ts';
import { rawRequest } from '../testing/http-request.ts';
import type { StudioHarness } from '../testing/studio-harness.ts';
import { startWebStudioHarness, type WebStudioHarness } from '../testing/web-studio-harness.ts';
import type { WebStudio } from '../web/web-server.ts';

const TICKER = `connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  ticker:
    source:
      type: http
      path: /ticks
      methods: [GET]
      sse: {enabled: true, heartbeat: 200ms, closeOnComplete: false}
    steps:
      - sse-event: {event: tick, data: '{"n": 1}'}
      - sse-event: {event: tick, data: '{"n": 2}'}
`;

let w: WebStudioHarness;
let h: StudioHarness;
let web: WebStudio;
let ticks: string;
beforeAll(async () => {
  w = await startWebStudioHarness({ ticker: { 'ticker.yaml': TICKER } });
  ({ harness: h, web } = w);
  ticks = (await h.backend.api.startIntegration('ticker')).routes[0].url;
}, 30_000);
afterAll(() => w?.close());

const headers = (): Record<string, string> => w.headers();

/** The page's sendRequest call, left hanging while the stream runs; `leave()` drops it as a reload does. */
function sendFromPage(id: string): { leave(): void } {
  const req = request(`${web.origin}/api/call/sendRequest`, { method: 'POST', headers: headers(), agent: false });
  req.on('error', () => {});
  req.end(JSON.stringify({ args: [{ id, method: 'GET', url: ticks, headers: [], body: { kind: 'none' } }] }));
  return { leave: () => req.destroy() };
}

/** Resolves once the stream of request `id` has delivered `events` events to the page. */
function eventsArrived(id: string, events: number): Promise<void> {
  let seen = 0;
  return new Promise((resolve) => {
    const stop = h.backend.on('requestProgress', (p: RequestProgress) => {
      if (p.id !== id) return;
      seen += p.frames.filter((f) => !f.heartbeat).length;
      if (seen >= events) {
        stop();
        resolve();
      }
    });
  });
}

async function historyEntry(id: string): Promise<HistoryEntry> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
    const res = await rawRequest(`${web.origin}/api/call/requestHistory`, { method: 'POST', headers: headers(), body: '{"args":[]}' });
    const found = (JSON.parse(res.body) as { value: HistoryEntry[] }).value.find((e) => e.id === id);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`request ${id} never reached the history`);
}

describe('an event stream whose page went away mid-stream', () => {
  it('ends, and is recorded as interrupted with no event marked final', async () => {
    const arrived = eventsArrived('reload-1', 2);
    const page = sendFromPage('reload-1');
    await arrived;
    page.leave();
    const entry = await historyEntry('reload-1');
    expect(entry.response.endedBy).toBe('interrupted');
    expect(entry.response.frames?.filter((f) => !f.heartbeat).map((f) => [f.data, f.mark])).toEqual([
      ['{"n":1}', undefined],
      ['{"n":2}', undefined],
    ]);
  });
});
