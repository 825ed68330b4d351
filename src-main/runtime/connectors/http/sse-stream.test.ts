import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpConnector } from './http.ts';
import { curl } from './test-support/curl.ts';
import { LOOPBACK, serveYaml, type Served } from './test-support/serve-yaml.ts';
import { SseReader } from './test-support/sse-client.ts';

const SECRET = 'a-test-secret-of-at-least-32-bytes!!';

/** Every row of the SSE stream table (spec 2 §3.1). */
describe('an SSE route’s stream (spec 2 §3.1)', () => {
  let s: Served;
  const streams = (): number => (s.runtime.definition.connectors[0].instance as HttpConnector).streams.size;

  beforeAll(async () => {
    s = await serveYaml(`${LOOPBACK}flows:
  progress:
    source: {type: http, path: /progress, responseHeaders: [X-Job], sse: {enabled: true, finalEvent: true, finalEventName: done}}
    steps:
      - set: {vars: {httpStatus: '202', X-Job: '"job-7"'}}
      - sse-event: {event: progress, data: '{"percent": 50}'}
      - sse-event: {event: progress, data: '{"percent": 100}'}
      - set: {body: '{"result": "ok"}'}
  quiet:
    source: {type: http, path: /quiet, sse: {enabled: true}}
    steps:
      - set: {body: '{"answered": "normally"}'}
  quiet-drop:
    source: {type: http, path: /quiet-drop, sse: {enabled: true}}
    steps: [{filter: {condition: 'false'}}]
  quiet-fail:
    source: {type: http, path: /quiet-fail, sse: {enabled: true}}
    steps: [{set: {body: 'body.missing.deeper'}}]
  guarded:
    source: {type: http, path: /guarded, headers: [Authorization], sse: {enabled: true}}
    steps:
      - jwt-verify: {secret: '${SECRET}'}
      - filter: {condition: 'has(vars.query.topic)', reject: {status: 400, body: '{"error": "topic is required"}'}}
      - sse-event: {event: hello, data: 'vars.jwt.sub'}
  closer:
    source: {type: http, path: /closer, sse: {enabled: true, finalEvent: true}}
    steps:
      - sse-event: {data: '"last"', close: true}
      - wait: {for: 50ms}
      - log: {message: '"closer went on after close"'}
  disconnect:
    source: {type: http, path: /disconnect, sse: {enabled: true}}
    steps:
      - sse-event: {data: '"first"'}
      - wait: {for: 150ms}
      - sse-event: {data: '"second"', ifClosed: ignore}
      - log: {message: '"flow finished after the client left"'}
  capped:
    source: {type: http, path: /capped, sse: {enabled: true, closeOnComplete: false, maxDuration: 150ms}}
    steps: [{sse-event: {data: '"open"'}}]
  lingering:
    source: {type: http, path: /lingering, sse: {enabled: true, closeOnComplete: false, heartbeat: 40ms}}
    steps: [{sse-event: {data: 'vars.sseStream'}}]
  notify:
    source: {type: http, path: /notify, methods: [POST]}
    steps:
      - sse-event: {stream: body.stream, event: note, data: 'body.text', close: true}
      - set: {body: '{"sent": true}'}
  broken:
    source: {type: http, path: /broken, sse: {enabled: true, finalEvent: true}}
    steps:
      - sse-event: {data: '"working"'}
      - set: {body: 'body.missing.deeper'}
  handled:
    source: {type: http, path: /handled, sse: {enabled: true}}
    steps:
      - sse-event: {data: '"working"'}
      - set: {body: 'body.missing.deeper'}
    onError:
      - sse-event: {event: failed, data: '{"step": vars.error.step}'}
`);
  });
  afterAll(() => s.stop());

  it('commits 200-or-httpStatus text/event-stream on the first frame, with the emitting message’s headers', async () => {
    const sse = await SseReader.open(`${s.url}/progress`);
    expect(sse.response.status).toBe(202);
    expect(sse.response.headers.get('content-type')).toBe('text/event-stream');
    expect(sse.response.headers.get('x-job')).toBe('job-7');
    expect(await sse.rest()).toEqual([
      { event: 'progress', data: '{"percent":50}' },
      { event: 'progress', data: '{"percent":100}' },
      { event: 'done', data: '{"result":"ok"}' },
    ]);
  });

  it('answers an ordinary response when the flow ends without a frame: JSON, 204 when dropped, 500 when failed', async () => {
    const quiet = await fetch(`${s.url}/quiet`);
    expect(quiet.headers.get('content-type')).toBe('application/json');
    expect(await quiet.json()).toEqual({ answered: 'normally' });
    expect((await fetch(`${s.url}/quiet-drop`)).status).toBe(204);
    const failed = await fetch(`${s.url}/quiet-fail`);
    expect(failed.status).toBe(500);
    expect(Object.keys(await failed.json())).toEqual(['error']);
    expect(streams()).toBe(0);
  });

  it('answers a JWT filter’s 401 and a validation filter’s 400 with their own bodies before any frame', async () => {
    const noToken = await fetch(`${s.url}/guarded?topic=a`);
    expect(noToken.status).toBe(401);
    expect(await noToken.json()).toEqual({ error: 'missing Authorization header' });
    const token = await new SignJWT({ sub: 'ada' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1m').sign(new TextEncoder().encode(SECRET));
    const noTopic = await fetch(`${s.url}/guarded`, { headers: { authorization: `Bearer ${token}` } });
    expect(noTopic.status).toBe(400);
    expect(await noTopic.json()).toEqual({ error: 'topic is required' });
    const ok = await SseReader.open(`${s.url}/guarded?topic=a`, { headers: { authorization: `Bearer ${token}` } });
    expect(ok.response.status).toBe(200);
    expect(await ok.rest()).toEqual([{ event: 'hello', data: 'ada' }]);
  });

  it('closes on an sse-event with close: true, without the final frame, while the flow goes on', async () => {
    const sse = await SseReader.open(`${s.url}/closer`);
    expect(await sse.rest()).toEqual([{ data: 'last' }]);
    await s.logged('closer went on after close');
  });

  it('closes when the client disconnects, without cancelling the flow', async () => {
    const sse = await SseReader.open(`${s.url}/disconnect`);
    expect(await sse.next()).toEqual({ data: 'first' });
    await sse.close();
    await s.logged('flow finished after the client left');
    expect(streams()).toBe(0);
  });

  it('closes at maxDuration', async () => {
    const t0 = Date.now();
    const sse = await SseReader.open(`${s.url}/capped`);
    expect(await sse.rest()).toEqual([{ data: 'open' }]);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
  });

  it('stays open after the flow with closeOnComplete false, pinging while idle, until another flow writes to its address', async () => {
    const sse = await SseReader.open(`${s.url}/lingering`);
    const address = (await sse.next())!.data!;
    expect(address).toMatch(/^http:[0-9a-f-]{36}$/);
    expect(await sse.next()).toEqual({ comment: 'ping' });
    const note = await fetch(`${s.url}/notify`, { method: 'POST', body: JSON.stringify({ stream: address, text: 'from elsewhere' }) });
    expect(await note.json()).toEqual({ sent: true });
    const rest = (await sse.rest()).filter((f) => f.comment === undefined);
    expect(rest).toEqual([{ event: 'note', data: 'from elsewhere' }]);
  });

  it('closes on connector shutdown', async () => {
    const own = await serveYaml(`${LOOPBACK}flows:
  open:
    source: {type: http, path: /open, sse: {enabled: true, closeOnComplete: false}}
    steps: [{sse-event: {data: '"hi"'}}]
`);
    const sse = await SseReader.open(`${own.url}/open`);
    expect(await sse.next()).toEqual({ data: 'hi' });
    await own.stop();
    expect(await sse.rest()).toEqual([]);
  });

  it('sends event: error with {error} on an unhandled failure, and closes', async () => {
    const sse = await SseReader.open(`${s.url}/broken`);
    const frames = await sse.rest();
    expect(frames[0]).toEqual({ data: 'working' });
    expect(frames[1].event).toBe('error');
    expect(Object.keys(JSON.parse(frames[1].data!))).toEqual(['error']);
    expect(frames).toHaveLength(2);
  });

  it('lets an sse-event in the error chain answer the failure instead of the error frame', async () => {
    const sse = await SseReader.open(`${s.url}/handled`);
    expect(await sse.rest()).toEqual([{ data: 'working' }, { event: 'failed', data: '{"step":"flows.handled.steps[1]"}' }]);
  });

  it('streams to curl -N frame by frame', async () => {
    const res = await curl(['-N', `${s.url}/progress`]);
    expect(res.status).toBe(202);
    expect(res.body).toBe('event: progress\ndata: {"percent":50}\n\nevent: progress\ndata: {"percent":100}\n\nevent: done\ndata: {"result":"ok"}\n\n');
  });
});

describe('SSE route settings (spec 2 §2.6)', () => {
  let s: Served;
  beforeAll(async () => {
    s = await serveYaml(`${LOOPBACK}flows:
  custom-var:
    source: {type: http, path: /custom, sse: {enabled: true, streamVar: job}}
    steps:
      - sse-event: {stream: vars.job, data: 'vars.job.startsWith("http:")'}
  sub-flow:
    source: {type: http, path: /sub, sse: {enabled: true}}
    steps:
      - sse-event: {data: '"from the caller"'}
      - flow-ref: {flow: worker}
  worker:
    steps:
      - sse-event: {data: '"from a sub-flow holding a copy"'}
  heartbeat-default:
    source: {type: http, path: /hb-default, sse: {enabled: true, heartbeat: 0s}}
    steps:
      - sse-event: {data: '"start"'}
      - wait: {for: 250ms}
  one-at-a-time:
    source: {type: http, path: /one, sse: {enabled: true, maxStreams: 1}}
    steps:
      - sse-event: {data: '"holding"'}
      - wait: {for: 300ms}
  slow-start:
    source: {type: http, path: /slow-start, timeout: 100ms, sse: {enabled: true}}
    steps:
      - wait: {for: 250ms}
      - sse-event: {data: '"too late"'}
  quick-start:
    source: {type: http, path: /quick-start, timeout: 100ms, sse: {enabled: true}}
    steps:
      - sse-event: {data: '"early"'}
      - wait: {for: 250ms}
      - sse-event: {data: '"after the timeout"'}
`);
  });
  afterAll(() => s.stop());

  it('publishes the stream address in the variable streamVar names', async () => {
    expect(await (await SseReader.open(`${s.url}/custom`)).rest()).toEqual([{ data: 'true' }]);
  });

  it('lets a sub-flow write to the caller’s stream through the copied address', async () => {
    expect(await (await SseReader.open(`${s.url}/sub`)).rest()).toEqual([{ data: 'from the caller' }, { data: 'from a sub-flow holding a copy' }]);
  });

  it('treats heartbeat 0 as the 15s default, not as “ping constantly”', async () => {
    expect(await (await SseReader.open(`${s.url}/hb-default`)).rest()).toEqual([{ data: 'start' }]);
  });

  it('answers 503 over maxStreams', async () => {
    const first = await SseReader.open(`${s.url}/one`);
    expect(await first.next()).toEqual({ data: 'holding' });
    const second = await fetch(`${s.url}/one`);
    expect(second.status).toBe(503);
    expect(await second.json()).toEqual({ error: '/one has 1 open stream, its maxStreams; try again later' });
    // Traced as a run the flow did not take, saying why, like a 400 or a 413.
    expect(s.refused.at(-1)).toMatchObject({ kind: 'run', flow: 'one-at-a-time', outcome: 'failed', error: 'refused before the flow ran: /one has 1 open stream, its maxStreams; try again later' });
    await first.rest();
    expect((await SseReader.open(`${s.url}/one`)).response.status).toBe(200);
  });

  it('bounds only the wait for the first frame with the timeout', async () => {
    expect((await fetch(`${s.url}/slow-start`)).status).toBe(504);
    expect(await (await SseReader.open(`${s.url}/quick-start`)).rest()).toEqual([{ data: 'early' }, { data: 'after the timeout' }]);
  });
});
