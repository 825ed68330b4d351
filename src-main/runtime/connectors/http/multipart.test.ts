import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curl } from './test-support/curl.ts';
import { LOOPBACK, serveYaml, type Served } from './test-support/serve-yaml.ts';

const BOUNDARY = 'XyZzy';

function multipart(parts: string[]): string {
  return parts.map((p) => `--${BOUNDARY}\r\n${p}\r\n`).join('') + `--${BOUNDARY}--\r\n`;
}

describe('multipart bodies (spec 2 §2.5)', () => {
  let s: Served;
  beforeAll(async () => {
    s = await serveYaml(`${LOOPBACK}flows:
  echo:
    source: {type: http, path: /echo}
    steps:
      - set: {body: '{"parts": body.parts, "contentType": body.contentType, "rawBytes": size(body.rawData)}'}
  field:
    source: {type: http, path: /field}
    steps:
      - set: {body: '{"part": body.parts.title, "hasFilename": body.parts.title.filename != null}'}
  raw-echo:
    source: {type: http, path: /raw-echo, rawBody: true}
    steps:
      - set: {body: '{"names": body.parts.map(k, k)}'}
`);
  });
  afterAll(() => s.stop());

  it('decodes fields as text and files as base64, with name, filename, contentType, size and headers', async () => {
    const form = new FormData();
    form.append('title', 'Quarterly report – Q3');
    form.append('file', new Blob([Buffer.from([0, 1, 2, 255])], { type: 'application/pdf' }), 'report.pdf');
    const res = await fetch(`${s.url}/echo`, { method: 'POST', body: form });
    expect(res.status).toBe(200);
    const got = await res.json();
    expect(got.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(got.parts.title).toEqual({
      name: 'title',
      filename: null,
      contentType: 'text/plain',
      encoding: 'text',
      size: Buffer.byteLength('Quarterly report – Q3'),
      data: 'Quarterly report – Q3',
      headers: { 'content-disposition': 'form-data; name="title"' },
    });
    expect(got.parts.file).toEqual({
      name: 'file',
      filename: 'report.pdf',
      contentType: 'application/pdf',
      encoding: 'base64',
      size: 4,
      data: Buffer.from([0, 1, 2, 255]).toString('base64'),
      headers: { 'content-disposition': 'form-data; name="file"; filename="report.pdf"', 'content-type': 'application/pdf' },
    });
  });

  it('treats a part without a filename as a text field whatever its Content-Type, with filename null', async () => {
    const body = multipart(['Content-Disposition: form-data; name="title"\r\nContent-Type: application/octet-stream\r\n\r\nQ3 report']);
    const res = await fetch(`${s.url}/field`, { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }, body });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      part: {
        name: 'title',
        filename: null,
        contentType: 'application/octet-stream',
        encoding: 'text',
        size: 9,
        data: 'Q3 report',
        headers: { 'content-disposition': 'form-data; name="title"', 'content-type': 'application/octet-stream' },
      },
      hasFilename: false,
    });
  });

  it('keeps the exact bytes in rawData', async () => {
    const body = multipart(['Content-Disposition: form-data; name="a"\r\n\r\nhello']);
    const res = await fetch(`${s.url}/echo`, { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }, body });
    expect((await res.json()).rawBytes).toBe(Buffer.byteLength(body));
  });

  it('turns a repeated part name into a list', async () => {
    const form = new FormData();
    form.append('tag', 'red');
    form.append('tag', 'blue');
    form.append('tag', 'green');
    const got = await (await fetch(`${s.url}/echo`, { method: 'POST', body: form })).json();
    expect(got.parts.tag.map((p: { data: string }) => p.data)).toEqual(['red', 'blue', 'green']);
  });

  it('decodes multipart even when the route keeps raw bodies', async () => {
    const form = new FormData();
    form.append('one', '1');
    form.append('two', '2');
    expect(await (await fetch(`${s.url}/raw-echo`, { method: 'POST', body: form })).json()).toEqual({ names: ['one', 'two'] });
  });

  it('accepts curl -F uploads of fields and files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'multipart-'));
    try {
      writeFileSync(join(dir, 'notes.txt'), 'line one\nline two\n');
      const res = await curl(['-F', 'who=ops', '-F', `doc=@${join(dir, 'notes.txt')};type=text/plain`, `${s.url}/echo`]);
      expect(res.status).toBe(200);
      const got = JSON.parse(res.body);
      expect(got.parts.who).toMatchObject({ encoding: 'text', data: 'ops' });
      expect(got.parts.doc).toMatchObject({ filename: 'notes.txt', contentType: 'text/plain', encoding: 'base64', size: 18 });
      expect(Buffer.from(got.parts.doc.data, 'base64').toString()).toBe('line one\nline two\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    ['no boundary', 'multipart/form-data', 'whatever'],
    ['a truncated body', `multipart/form-data; boundary=${BOUNDARY}`, `--${BOUNDARY}\r\nContent-Disposition: form-data; name="a"\r\n\r\nhel`],
    ['an empty body', `multipart/form-data; boundary=${BOUNDARY}`, ''],
  ])('answers 400 before the flow runs for a multipart body with %s', async (_what, contentType, body) => {
    const before = s.runs.length;
    const res = await fetch(`${s.url}/echo`, { method: 'POST', headers: { 'content-type': contentType }, body });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/^malformed multipart body/);
    expect(s.runs.length).toBe(before);
  });

  it('rejects a part whose filename hides a line break', async () => {
    const body = multipart([`Content-Disposition: form-data; name="f"; filename*=utf-8''evil%0D%0AX-Injected%3A%201\r\n\r\ndata`]);
    const res = await fetch(`${s.url}/echo`, { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }, body });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe('malformed multipart body: a part filename contains a line break');
  });
});
