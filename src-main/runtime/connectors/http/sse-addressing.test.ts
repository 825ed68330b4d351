import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curl } from './test-support/curl.ts';
import { serveYaml, type Served } from './test-support/serve-yaml.ts';

// Spec 2 §2.7: `connector` applies only to a bare stream id; a full address names its own.
describe('sse-event in a definition with two http connectors', () => {
  let s: Served;
  let adminUrl: string;
  beforeAll(async () => {
    s = await serveYaml(`connectors:
  public: {type: http, host: 127.0.0.1, port: 0}
  admin: {type: http, host: 127.0.0.1, port: 0}
flows:
  public-events:
    source: {type: http, connector: public, path: /events, sse: {enabled: true}}
    steps:
      - sse-event: {event: hello, data: '"from public"'}
  admin-events:
    source: {type: http, connector: admin, path: /events, sse: {enabled: true, streamVar: progress}}
    steps:
      - sse-event: {event: hello, data: '"from admin via " + vars.progress.split(":")[0]'}
  bare-id:
    source: {type: http, connector: public, path: /bare, sse: {enabled: true}}
    steps:
      - sse-event: {stream: 'vars.sseStream.split(":")[1]', data: '"unreachable"'}
`);
    adminUrl = String(s.runtime.describe().connectors.find((c) => c.name === 'admin')?.details?.url);
  });
  afterAll(() => s.stop());

  it('loads without connector: on sse-event blocks and writes to the stream the full address names', async () => {
    const res = await curl([`${s.url}/events`]);
    expect(res.status).toBe(200);
    expect(res.body).toBe('event: hello\ndata: from public\n\n');
  });

  it('defaults the stream to the route’s sse.streamVar', async () => {
    const res = await curl([`${adminUrl}/events`]);
    expect(res.status).toBe(200);
    expect(res.body).toBe('event: hello\ndata: from admin via admin\n\n');
  });

  it('fails at run time on a bare id when no connector: resolves it', async () => {
    const res = await curl([`${s.url}/bare`]);
    expect(res.status).toBe(500);
    expect(JSON.parse(res.body).error).toMatch(/^sse-event: stream address "[0-9a-f-]+" names connector "http", which this definition does not declare$/);
  });
});
