import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOOPBACK, serveYaml, type Served } from './test-support/serve-yaml.ts';
import { SseReader } from './test-support/sse-client.ts';

const SECRET = 'tok-9f8e7d6c5b4a';

describe('secrets in error answers', () => {
  let s: Served;
  beforeAll(async () => {
    s = await serveYaml(
      `env:
  API_TOKEN: {secret: true, required: true}
${LOOPBACK}flows:
  plain:
    source: {type: http, path: /plain}
    steps: [{fail: {message: 'upstream refused token \${API_TOKEN}'}}]
  stream:
    source: {type: http, path: /stream, sse: {enabled: true}}
    steps:
      - sse-event: {data: '"started"'}
      - fail: {message: 'upstream refused token \${API_TOKEN}'}
`,
      { API_TOKEN: SECRET },
    );
  });
  afterAll(() => s.stop());

  it('never shows a secret value in a 500 body', async () => {
    const res = await fetch(`${s.url}/plain`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: 'upstream refused token [redacted]' });
  });

  it('never shows a secret value in an SSE error frame', async () => {
    const frames = await (await SseReader.open(`${s.url}/stream`)).rest();
    expect(frames[1]).toEqual({ event: 'error', data: '{"error":"upstream refused token [redacted]"}' });
  });
});
