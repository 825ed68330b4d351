import { fileURLToPath } from 'node:url';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { definitionFilesIn, readDefinitions } from '../../core/load/integration-files.ts';
import { Runtime } from '../../core/runtime.ts';
import { registry } from '../../registry.ts';
import { problemsOf } from '../../testing/load-yaml.ts';
import { serverCredentials, serverUri, suiteDatabase } from './testing/docstore-test-server.ts';

const exampleDir = fileURLToPath(new URL('../../../../examples/docstore-crud', import.meta.url));
const exampleText = () => readDefinitions(definitionFilesIn(exampleDir));

describe('the docstore-crud example', () => {
  it('validates without a server', () => {
    const [file] = exampleText();
    expect(problemsOf(file.text)).toEqual([]);
  });
});

describe.skipIf(!serverUri)('the docstore-crud example against a real server', () => {
  const database = suiteDatabase('crud');
  let runtime: Runtime;
  let api: string;

  beforeAll(async () => {
    const { uri, password } = serverCredentials();
    runtime = Runtime.load(exampleText(), {
      registry,
      env: { DOCSTORE_URI: uri, DOCSTORE_DATABASE: database, ...(password === undefined ? {} : { DOCSTORE_PASSWORD: password }) },
    });
    await runtime.start();
    api = `${runtime.describe().connectors.find((c) => c.type === 'http')!.details!.url as string}/api`;
  });
  afterAll(async () => {
    await runtime?.stop(1_000);
    const client = new MongoClient(serverUri!, { serverSelectionTimeoutMS: 5000 });
    await client.db(database).dropDatabase().catch(() => {});
    await client.close();
  });

  const send = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${api}${path}`, { method, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, location: res.headers.get('location'), body: res.status === 204 ? null : await res.json() };
  };

  it('creates, reads, renames and deletes a note over http', async () => {
    const created = await send('POST', '/notes', { title: 'first', text: 'hello' });
    expect(created.status).toBe(201);
    const id = (created.body as { id: string }).id;
    expect(id).toMatch(/^[0-9a-f]{24}$/);
    expect(created.location).toBe(`/api/notes/${id}`);

    expect(await send('GET', `/notes/${id}`)).toMatchObject({ status: 200, body: { id, title: 'first', text: 'hello' } });
    expect(await send('PATCH', `/notes/${id}`, { title: 'renamed' })).toMatchObject({ status: 200, body: { id, updated: true } });
    expect((await send('GET', `/notes/${id}`)).body).toEqual({ id, title: 'renamed', text: 'hello' });
    expect((await send('DELETE', `/notes/${id}`)).status).toBe(204);
    expect(await send('GET', `/notes/${id}`)).toEqual({ status: 404, location: null, body: { error: 'no such note' } });
    expect((await send('DELETE', `/notes/${id}`)).status).toBe(404);
  });

  it('refuses a note without a title', async () => {
    expect(await send('POST', '/notes', { text: 'no title' })).toMatchObject({ status: 400, body: { error: 'a note needs a title' } });
  });

  it('pages through every note by range on _id, 20 at a time', async () => {
    for (let i = 0; i < 25; i++) await send('POST', '/notes', { title: `note ${i}` });
    const first = (await send('GET', '/notes')).body as { items: Array<{ id: string; title: string }>; next: string | null };
    expect(first.items).toHaveLength(20);
    expect(first.next).toBe(first.items[19].id);
    const second = (await send('GET', `/notes?after=${first.next}`)).body as typeof first;
    expect(second.next).toBeNull();
    const titles = [...first.items, ...second.items].map((n) => n.title);
    expect(titles).toEqual(Array.from({ length: 25 }, (_, i) => `note ${i}`));
    expect((await send('GET', '/notes?after=bogus')).status).toBe(400);
  });
});
