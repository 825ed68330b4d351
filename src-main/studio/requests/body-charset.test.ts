import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStudioHarness, type StudioHarness } from '../testing/studio-harness.ts';

// Answers with the request's own bytes and Content-Type, charset included.
const ECHO = `
connectors:
  web: {type: http, host: 127.0.0.1, port: 0}
flows:
  echo-bytes:
    source: {type: http, path: /echo-bytes, methods: [POST], rawBody: true}
    steps:
      - set: {body: body}
`;

let h: StudioHarness;
beforeAll(async () => {
  h = await startStudioHarness({ charsets: { 'echo.yaml': ECHO } });
  await h.backend.api.startIntegration('charsets');
});
afterAll(async () => {
  await h?.close();
});

const url = (): string => h.states.filter((s) => s.integration === 'charsets' && s.status === 'running').at(-1)!.routes[0].url;
const send = (id: string, bytes: Buffer, contentType: string) =>
  h.backend.api.sendRequest({ id, method: 'POST', url: url(), headers: [], body: { kind: 'bytes', base64: bytes.toString('base64'), contentType } });

describe('text that is not UTF-8', () => {
  it('reads a Latin-1 body by the charset its Content-Type names, in the answer and in the capture', async () => {
    // "café naïve" in ISO-8859-1: é and ï are one byte each, invalid as UTF-8.
    const latin1 = Buffer.from('café naïve', 'latin1');
    const entry = await send('latin-1', latin1, 'text/plain; charset=ISO-8859-1');
    expect(entry.response.status).toBe(200);
    expect(entry.response.body.text).toBe('café naïve');
    expect(entry.response.body.bytes).toBe(10);
    const capture = (await h.backend.api.captureDetail(entry.captureId!))!;
    expect(capture.requestBody.text).toBe('café naïve');
    expect(capture.responseBody.text).toBe('café naïve');
  });

  it('reads windows-1251 Cyrillic by its charset, and an unknown charset as UTF-8 rather than failing', async () => {
    const cyrillic = Buffer.from([0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2]); // "Привет"
    expect((await send('cp1251', cyrillic, 'text/plain; charset="windows-1251"')).response.body.text).toBe('Привет');
    expect((await send('unknown-charset', Buffer.from('plain ascii'), 'text/plain; charset=x-made-up')).response.body.text).toBe('plain ascii');
  });
});
