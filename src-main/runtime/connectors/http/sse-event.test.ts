import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problemsOf } from '../../testing/load-yaml.ts';
import { curl } from './test-support/curl.ts';
import { LOOPBACK, serveYaml, type Served } from './test-support/serve-yaml.ts';
import { SseReader } from './test-support/sse-client.ts';

describe('the sse-event block (spec 2 §2.7)', () => {
  let s: Served;
  const lastRun = async (flow: string) => {
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 10))) {
      const run = s.runs.findLast((r) => r.flow === flow);
      if (run) return run;
    }
    throw new Error(`flow ${flow} never finished`);
  };

  beforeAll(async () => {
    s = await serveYaml(`connectors:
  http: {type: http, host: 127.0.0.1, port: 0}
  admin: {type: http, host: 127.0.0.1, port: 0}
flows:
  lines:
    source: {type: http, path: /lines, sse: {enabled: true}}
    steps:
      - set: {body: '{"n": 1}'}
      - sse-event: {connector: http, event: ''}
      - sse-event: {connector: http, event: text, data: '"first line\\nsecond line\\r\\nthird"'}
  stopping:
    source: {type: http, path: /stopping, sse: {enabled: true, finalEvent: true}}
    steps:
      - sse-event: {connector: http, data: '"only"', stop: true}
      - set: {body: '"never reached"'}
  silent-close:
    source: {type: http, path: /silent-close, sse: {enabled: true, finalEvent: true, finalEventName: done}}
    steps:
      - sse-event: {connector: http, data: '"one"'}
      - sse-event: {connector: http, close: true}
      - set: {body: '"final frame never sent"'}
  if-closed-stop:
    source: {type: http, path: /if-closed-stop, sse: {enabled: true}}
    steps:
      - sse-event: {connector: http, data: '"bye"', close: true}
      - sse-event: {connector: http, data: '"lost"'}
      - log: {message: '"not reached after stop"'}
  if-closed-ignore:
    source: {type: http, path: /if-closed-ignore, sse: {enabled: true}}
    steps:
      - sse-event: {connector: http, data: '"bye"', close: true}
      - sse-event: {connector: http, data: '"lost"', ifClosed: ignore}
      - log: {message: '"went on after ignore"'}
  if-closed-error:
    source: {type: http, path: /if-closed-error, sse: {enabled: true}}
    steps:
      - sse-event: {connector: http, data: '"bye"', close: true}
      - sse-event: {connector: http, data: '"lost"', ifClosed: error}
  unknown-id:
    source: {type: http, path: /unknown-id}
    steps:
      - sse-event: {connector: admin, stream: '"no-such-stream"', data: '"x"', ifClosed: ignore}
      - set: {body: '"nobody was listening, so ignored"'}
  no-address:
    source: {type: http, path: /no-address}
    steps:
      - sse-event: {connector: http, data: '"x"', ifClosed: ignore}
  unknown-connector:
    source: {type: http, path: /unknown-connector}
    steps:
      - sse-event: {connector: http, stream: '"elsewhere:123"', data: '"x"', ifClosed: ignore}
`);
  });
  afterAll(() => s.stop());

  it('writes the body as JSON by default (an empty event name is an unnamed event), and a multi-line value as several data: lines', async () => {
    const res = await curl(['-N', `${s.url}/lines`]);
    expect(res.body).toBe('data: {"n":1}\n\nevent: text\ndata: first line\ndata: second line\ndata: third\n\n');
  });

  it('stops the flow after the frame with stop: true (the final frame carries the message as it was)', async () => {
    expect(await (await SseReader.open(`${s.url}/stopping`)).rest()).toEqual([{ data: 'only' }, { data: 'null' }]);
  });

  it('writes nothing with neither event nor data: a way to close without the final frame', async () => {
    expect(await (await SseReader.open(`${s.url}/silent-close`)).rest()).toEqual([{ data: 'one' }]);
  });

  it('on a stream that has ended: ifClosed stop ends the flow completed, ignore goes on, error fails', async () => {
    expect(await (await SseReader.open(`${s.url}/if-closed-stop`)).rest()).toEqual([{ data: 'bye' }]);
    expect((await lastRun('if-closed-stop')).outcome).toBe('completed');
    expect(s.logs.some((l) => l.msg === 'not reached after stop')).toBe(false);

    await (await SseReader.open(`${s.url}/if-closed-ignore`)).rest();
    await s.logged('went on after ignore');

    await (await SseReader.open(`${s.url}/if-closed-error`)).rest();
    const failed = await lastRun('if-closed-error');
    expect(failed.outcome).toBe('failed');
    expect(failed.error).toMatch(/^the event stream http:[0-9a-f-]+ has ended/);
  });

  it('treats an address nobody listens on as closed (ifClosed decides)', async () => {
    expect(await (await fetch(`${s.url}/unknown-id`)).json()).toBe('nobody was listening, so ignored');
  });

  it('always fails when wired wrongly, whatever ifClosed says', async () => {
    const none = await fetch(`${s.url}/no-address`);
    expect(none.status).toBe(500);
    expect((await none.json()).error).toMatch(/^sse-event has no stream address: vars.sseStream is not set/);
    const elsewhere = await fetch(`${s.url}/unknown-connector`);
    expect(elsewhere.status).toBe(500);
    expect(await elsewhere.json()).toEqual({ error: 'sse-event: stream address "elsewhere:123" names connector "elsewhere", which this definition does not declare' });
  });

  it('refuses an event name with a line break at load', () => {
    expect(problemsOf(`${LOOPBACK}flows:
  a:
    steps: [{sse-event: {event: "a\\nb"}}]
`)).toEqual(['flows.yaml:5:25 flows.a.steps[0].sse-event: event must not contain a line break']);
  });
});
