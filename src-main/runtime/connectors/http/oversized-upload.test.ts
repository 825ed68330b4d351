import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawUpload } from '../../../../shared/tests/raw-upload.ts';
import { LOOPBACK, serveYaml, type Served } from './test-support/serve-yaml.ts';

/**
 * Issue 48 item 1: a route refuses a body over its maxBodyBytes from the Content-Length alone,
 * and a client that sends the whole body before reading still reads the 413, never a reset.
 */
const TEN_MB = 10 * 1024 * 1024;

let s: Served;
beforeAll(async () => {
  s = await serveYaml(`${LOOPBACK}flows:
  json:
    source: {type: http, path: /orders}
    steps:
      - set: {body: '{"ok": true}'}
  raw:
    source: {type: http, path: '/files/{name}', methods: [PUT], rawBody: true}
    steps:
      - set: {body: '{"bytes": size(body.rawData)}'}
  tiny:
    source: {type: http, path: /tiny, maxBodyBytes: 10}
    steps:
      - set: {body: '{"ok": true}'}
`);
});
afterAll(() => s.stop());

const routes: Array<[method: string, path: string]> = [
  ['POST', '/orders'],
  ['PUT', '/files/report.pdf'],
  ['POST', '/tiny'],
];

describe('an oversized upload to a route', () => {
  it.each(routes)('%s %s: 10 MB announced and none sent is answered 413 within 1 s, and no flow runs', async (method, path) => {
    const before = s.runs.length;
    const answer = await rawUpload(s.url + path, method, TEN_MB, { sendBody: false, timeoutMs: 5_000 });
    expect(answer).toMatchObject({ status: 413, error: undefined });
    expect(answer.ms).toBeLessThan(1_000);
    expect(answer.headers).toMatch(/connection: close/i);
    expect(JSON.parse(answer.body)).toEqual({ error: expect.stringMatching(/larger than maxBodyBytes/) });
    expect(s.runs.length).toBe(before);
  });

  it.each(routes)('%s %s: a client that sends all 10 MB before reading reads the 413, never a reset', async (method, path) => {
    const answer = await rawUpload(s.url + path, method, TEN_MB, { sendBody: true });
    expect(answer).toMatchObject({ status: 413, error: undefined });
  });

  it('a client on a slow link, still sending for seconds after the answer, reads the 413 too', async () => {
    const answer = await rawUpload(`${s.url}/tiny`, 'POST', TEN_MB, { sendBody: true, pauseEveryMiBMs: 300 });
    expect(answer).toMatchObject({ status: 413, error: undefined });
    expect(answer.ms).toBeGreaterThan(2_500);
  });

  it('goes on answering on other connections meanwhile', async () => {
    const uploads = routes.map(([method, path]) => rawUpload(s.url + path, method, TEN_MB, { sendBody: true }));
    const res = await fetch(`${s.url}/tiny`, { method: 'POST', body: '[1]' });
    expect(res.status).toBe(200);
    for (const answer of await Promise.all(uploads)) expect(answer).toMatchObject({ status: 413, error: undefined });
  });
});
