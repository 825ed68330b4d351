import busboy from 'busboy';
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../../../core/runtime.ts';
import { problemsOf, startYaml } from '../../../testing/load-yaml.ts';
import { json, startRecordingServer, type Arrival, type RecordingServer } from '../testing/recording-server.ts';

let server: RecordingServer;
let runtime: Runtime | undefined;

beforeAll(async () => {
  server = await startRecordingServer();
});
afterAll(() => server.close());
afterEach(async () => {
  await runtime?.stop();
  runtime = undefined;
  server.reset();
  server.handle((_req, res) => json(res, 200, { ok: true }));
});

async function start(step: string): Promise<Runtime> {
  ({ runtime } = await startYaml(`connectors:
  api: {type: http-client, baseURL: "${server.url}"}
flows:
  call:
    steps:
      - rest:
${step.replace(/^/gm, '          ')}
`));
  return runtime;
}

interface ParsedPart {
  name: string;
  value?: string;
  data?: Buffer;
  filename?: string;
  mimeType?: string;
}

/** What a real multipart parser makes of a request body. */
function parseMultipart(arrival: Arrival): Promise<ParsedPart[]> {
  return new Promise((resolve, reject) => {
    const parts: ParsedPart[] = [];
    const bb = busboy({ headers: arrival.headers, defParamCharset: 'utf8' });
    bb.on('field', (name, value, info) => parts.push({ name, value, mimeType: info.mimeType }));
    bb.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => parts.push({ name, data: Buffer.concat(chunks), filename: info.filename, mimeType: info.mimeType }));
    });
    bb.on('close', () => resolve(parts));
    bb.on('error', reject);
    bb.end(arrival.body);
  });
}

describe('rest request', () => {
  it('sends method, path, query and headers from CEL and a JSON body with its content type', async () => {
    await start(`connector: api
method: POST
path: /orders
query: {customer: body.customer, limit: '20', tags: '["a", "b"]', skipped: 'null'}
headers: {X-Request-Id: correlationID, X-Count: size(body.items)}
body: '{"customer": body.customer, "items": body.items}'`);
    const result = await runtime!.run('call', { customer: 'ada & co', items: [1, 2] });
    expect(result.outcome).toBe('completed');
    const a = server.arrivals[0];
    expect(a.method).toBe('POST');
    expect(a.url).toBe('/orders?customer=ada%20%26%20co&limit=20&tags=%5B%22a%22%2C%22b%22%5D');
    expect(a.headers['x-request-id']).toBe(result.message.correlationId);
    expect(a.headers['x-count']).toBe('2');
    expect(a.headers['content-type']).toBe('application/json');
    expect(JSON.parse(a.body.toString())).toEqual({ customer: 'ada & co', items: [1, 2] });
  });

  it('sends a string body verbatim and lets a header set the content type', async () => {
    await start(`connector: api
method: PUT
path: /notes/1
headers: {Content-Type: '"text/csv"'}
body: '"a,b\\n1,2"'`);
    await runtime!.run('call');
    expect(server.arrivals[0].body.toString()).toBe('a,b\n1,2');
    expect(server.arrivals[0].headers['content-type']).toBe('text/csv');
  });

  it('forwards raw content as its bytes with its own content type', async () => {
    await start(`connector: api
method: POST
path: /upload
body: body`);
    const bytes = randomBytes(64);
    await runtime!.run('call', { contentType: 'image/png', rawData: bytes });
    expect(server.arrivals[0].headers['content-type']).toBe('image/png');
    expect(server.arrivals[0].body.equals(bytes)).toBe(true);
  });
});

describe('rest response', () => {
  it('parses JSON into the body and puts the status in statusVar', async () => {
    server.handle((_req, res) => json(res, 201, { id: 7 }, { 'content-type': 'application/problem+json' }));
    await start(`connector: api
method: POST
statusVar: created`);
    const result = await runtime!.run('call', { x: 1 });
    expect(result.message.body).toEqual({ id: 7 });
    expect(result.message.vars.created).toBe(201);
  });

  it('makes anything else raw content with the response Content-Type, and an empty response null', async () => {
    server.handle((req, res) => {
      if (req.url === '/empty') return void res.writeHead(204).end();
      res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8' }).end('a,b\n');
    });
    await start('connector: api\npath: /csv');
    const csv = await runtime!.run('call', { previous: true });
    expect(csv.message.body).toEqual({ contentType: 'text/csv; charset=utf-8', rawData: Buffer.from('a,b\n') });
    await runtime!.stop();
    await start('connector: api\npath: /empty');
    const empty = await runtime!.run('call', { previous: true });
    expect(empty.message.body).toBeNull();
    expect(empty.message.vars.statusCode).toBe(204);
  });

  it('turns a 400+ status into a flow error unless failOnError is false', async () => {
    server.handle((_req, res) => json(res, 404, { error: 'no such order' }));
    await start('connector: api\npath: /orders/9');
    const failed = await runtime!.run('call', { kept: true });
    expect(failed.outcome).toBe('failed');
    expect(failed.error?.message).toBe('http-client api: GET /orders/9 answered 404; set failOnError: false to handle it in the flow');
    expect(failed.message.vars.statusCode).toBe(404);
    expect(failed.message.body).toEqual({ kept: true });
    await runtime!.stop();
    await start('connector: api\npath: /orders/9\nfailOnError: false');
    const handled = await runtime!.run('call');
    expect(handled.outcome).toBe('completed');
    expect(handled.message.vars.statusCode).toBe(404);
    expect(handled.message.body).toEqual({ error: 'no such order' });
  });
});

describe('rest multipart', () => {
  it('renders text fields and files that a real parser reads back byte for byte', async () => {
    const binary = Buffer.concat([randomBytes(2048), Buffer.from('\r\n--\r\n'), randomBytes(2048)]);
    await start(`connector: api
method: POST
path: /upload
bodyType: multipart
headers: {Content-Type: '"application/json"'}
body: |
  {
    "title": "Quarterly report",
    "count": 3,
    "report": {"data": vars.pdf, "filename": "report \\"q3\\".pdf", "contentType": "application/pdf", "encoding": "base64"},
    "notes": {"data": "line 1\\nline 2", "filename": "notes.txt", "contentType": "text/plain"},
    "tags": ["a", "b"]
  }`);
    const result = await runtime!.run('call', null, { pdf: binary.toString('base64') });
    expect(result.outcome).toBe('completed');
    const a = server.arrivals[0];
    expect(a.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const parts = await parseMultipart(a);
    expect(parts.filter((p) => p.value !== undefined).map((p) => [p.name, p.value])).toEqual([
      ['title', 'Quarterly report'],
      ['count', '3'],
      ['tags', 'a'],
      ['tags', 'b'],
    ]);
    const report = parts.find((p) => p.name === 'report')!;
    expect(report.filename).toBe('report %22q3%22.pdf');
    expect(report.mimeType).toBe('application/pdf');
    expect(report.data!.equals(binary)).toBe(true);
    const notes = parts.find((p) => p.name === 'notes')!;
    expect(notes.data!.toString()).toBe('line 1\nline 2');
  });

  it('forwards an inbound body.parts as is', async () => {
    const image = randomBytes(300);
    const inbound = {
      contentType: 'multipart/form-data; boundary=x',
      rawData: Buffer.from('ignored'),
      parts: {
        caption: { name: 'caption', filename: null, contentType: 'text/plain', encoding: 'text', size: 5, data: 'hello', headers: {} },
        photo: [
          { name: 'photo', filename: 'a.png', contentType: 'image/png', encoding: 'base64', size: 300, data: image.toString('base64'), headers: {} },
          { name: 'photo', filename: 'b.png', contentType: 'image/png', encoding: 'base64', size: 3, data: 'AAEC', headers: {} },
        ],
      },
    };
    await start('connector: api\nmethod: POST\nbodyType: multipart\nbody: body.parts');
    expect((await runtime!.run('call', inbound)).outcome).toBe('completed');
    const parts = await parseMultipart(server.arrivals[0]);
    expect(parts.find((p) => p.name === 'caption')?.value).toBe('hello');
    const photos = parts.filter((p) => p.name === 'photo');
    expect(photos.map((p) => p.filename)).toEqual(['a.png', 'b.png']);
    expect(photos[0].data!.equals(image)).toBe(true);
    expect([...photos[1].data!]).toEqual([0, 1, 2]);
  });

  it('rejects a line break in a part name, filename or content type without sending anything', async () => {
    await start('connector: api\nmethod: POST\nbodyType: multipart\nbody: body');
    const cases: Array<[unknown, string]> = [
      [{ 'a\r\nX-Injected: 1': 'v' }, 'the part name contains a carriage return or line feed'],
      [{ f: { data: 'x', filename: 'a.txt\r\nX: y' } }, 'the filename contains a carriage return or line feed'],
      [{ f: { data: 'x', contentType: 'text/plain\nX: y' } }, 'the contentType contains a carriage return or line feed'],
    ];
    for (const [parts, message] of cases) {
      const result = await runtime!.run('call', parts);
      expect(result.outcome).toBe('failed');
      expect(result.error?.message).toContain(message);
    }
    expect(server.arrivals).toHaveLength(0);
  });
});

describe('rest settings', () => {
  it('reports an unknown method, a missing connector and a multipart step without a body', () => {
    expect(problemsOf(`connectors:
  api: {type: http-client, baseURL: "https://api.example.com"}
flows:
  a:
    steps:
      - rest: {connector: api, method: FETCH}
      - rest: {connector: web}
      - rest: {connector: api, bodyType: multipart}
`)).toEqual([
      'flows.yaml:6:40 flows.a.steps[0].rest.method: "FETCH" is not one of GET, POST, PUT, PATCH, DELETE, HEAD',
      'flows.yaml:7:27 flows.a.steps[1].rest.connector: no connector named "web"; http-client connectors: api',
      'flows.yaml:8:15 flows.a.steps[2].rest: bodyType multipart needs body: a map of parts',
    ]);
  });
});
