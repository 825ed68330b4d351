import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, testStore, type TestPlatform } from '../testing/platform-harness.ts';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform({ manualClock: true });
});
afterAll(() => platform.close());

const AGENT = '/v1/agent-memory/support-bot';
const thread = (key: string, suffix = '', userId?: string) =>
  `${AGENT}/threads/${encodeURIComponent(key)}${suffix}${userId ? `?userId=${encodeURIComponent(userId)}` : ''}`;
const saveWorking = (key: string, body: string | Buffer, version: number, headers: Record<string, string> = {}, userId?: string) =>
  platform.call('PUT', thread(key, '/working', userId), { body, headers: { 'x-object-version': String(version), ...headers } });
const append = (key: string, turns: unknown[], userId?: string) => platform.call('POST', thread(key, '/turns', userId), { json: { turns } });
const version = (res: { headers: Headers }) => Number(res.headers.get('x-object-version'));
const context = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const dataFiles = () => readdirSync(platform.dataDir).map((f) => readFileSync(join(platform.dataDir, f)));

describe('working memory (§4.5 rule 1, §3.5 versions)', () => {
  it('answers 404 for a conversation that has saved nothing: resume from nothing', async () => {
    const res = await platform.call('GET', thread('new-thread', '/working'));
    expect(res.status).toBe(404);
  });

  it('stores opaque bytes with version, iteration and token headers, and returns them unchanged', async () => {
    const bytes = Buffer.from([1, 2, 3, 0, 255]);
    const saved = await saveWorking('t-bytes', bytes, 0, { 'x-agent-iteration': '7', 'x-agent-tokens': '1234' });
    expect(saved.status).toBe(201);
    const read = await platform.call('GET', thread('t-bytes', '/working'));
    expect(read.status).toBe(200);
    expect(read.bytes.equals(bytes)).toBe(true);
    expect(read.headers.get('x-object-version')).toBe(String(version(saved)));
    expect(read.headers.get('x-agent-iteration')).toBe('7');
    expect(read.headers.get('x-agent-tokens')).toBe('1234');
  });

  it('follows the version rules: 0 on existing is 409, stale is 409, matching replaces', async () => {
    const v1 = version(await saveWorking('t-versions', 'one', 0));
    expect((await saveWorking('t-versions', 'again', 0)).status).toBe(409);
    const replaced = await saveWorking('t-versions', 'two', v1);
    expect(replaced.status).toBe(200);
    expect((await saveWorking('t-versions', 'three', v1)).status).toBe(409);
    expect((await platform.call('GET', thread('t-versions', '/working'))).text).toBe('two');
  });

  it('never answers 404 on save (that would mean agent memory is not implemented)', async () => {
    expect((await saveWorking('t-positive-on-absent', 'x', 5)).status).toBe(409);
    expect((await saveWorking('t-fresh', 'x', 0)).status).toBe(201);
  });
});

describe('turns (§4.5 rule 2)', () => {
  it('assigns seq and createdAt and returns the conversation\'s new version for the next save', async () => {
    const v1 = version(await saveWorking('t-turns', 'ctx', 0));
    const appended = await append('t-turns', [{ role: 'user', content: 'hello' }, { role: 'assistant', content: 'hi!' }]);
    expect(appended.status).toBe(200);
    const body = appended.json as { version: number; turns: Array<{ seq: number; createdAt: string }> };
    expect(body.turns.map((t) => t.seq)).toEqual([1, 2]);
    expect(Date.parse(body.turns[0].createdAt)).toBeGreaterThan(Date.now() - 10_000);
    expect(body.version).toBeGreaterThan(v1);
    expect((await saveWorking('t-turns', 'ctx2', v1)).status).toBe(409);
    expect((await saveWorking('t-turns', 'ctx2', body.version)).status).toBe(200);
  });

  it('lets concurrent appends interleave without conflict, with contiguous seqs', async () => {
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => append('t-concurrent', [{ n: i }])));
    expect(results.every((r) => r.status === 200)).toBe(true);
    const read = await platform.call('GET', thread('t-concurrent'));
    const turns = (read.json as { turns: Array<{ seq: number; n: number }> }).turns;
    expect(turns.map((t) => t.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(new Set(turns.map((t) => t.n)).size).toBe(10);
  });

  it('refuses turns that carry seq or createdAt with 400', async () => {
    const res = await append('t-bad', [{ role: 'user', seq: 3 }]);
    expect(res.status).toBe(400);
    expect(res.message).toContain('turns[0].seq');
  });

  it('refuses an append without turns with 400', async () => {
    expect((await platform.call('POST', thread('t-bad', '/turns'), { json: {} })).status).toBe(400);
  });
});

describe('threads: list, read, title, delete', () => {
  it('records the user on the first write that names one, and only then', async () => {
    await saveWorking('t-user', 'x', 0);
    await append('t-user', [{ c: 1 }], 'alice');
    await append('t-user', [{ c: 2 }], 'bob');
    const read = await platform.call('GET', thread('t-user'));
    expect((read.json as { userId: string }).userId).toBe('alice');
  });

  it('lists a person\'s conversations most recently active first, with cursor paging', async () => {
    for (const key of ['l-1', 'l-2', 'l-3']) {
      await append(key, [{ text: key }], 'lister');
      await platform.elapse(5); // activity times differ
    }
    await append('l-1', [{ text: 'active again' }], 'lister');
    const first = await platform.call('GET', `${AGENT}/threads?userId=lister&limit=2`);
    const page1 = first.json as { threads: Array<{ threadKey: string; turnCount: number }>; nextCursor?: string };
    expect(page1.threads.map((t) => t.threadKey)).toEqual(['l-1', 'l-3']);
    expect(page1.threads[0].turnCount).toBe(2);
    const second = await platform.call('GET', `${AGENT}/threads?userId=lister&limit=2&cursor=${page1.nextCursor}`);
    const page2 = second.json as { threads: Array<{ threadKey: string }>; nextCursor?: string };
    expect(page2.threads.map((t) => t.threadKey)).toEqual(['l-2']);
    expect(page2.nextCursor).toBeUndefined();
  });

  it('refuses limit 0 and an unreadable cursor with 400', async () => {
    expect((await platform.call('GET', `${AGENT}/threads?limit=0`)).status).toBe(400);
    expect((await platform.call('GET', `${AGENT}/threads?cursor=nonsense`)).status).toBe(400);
  });

  it('reads a conversation\'s metadata and its turns in order, a page at a time', async () => {
    await append('r-1', [{ n: 1 }, { n: 2 }, { n: 3 }]);
    await platform.call('PUT', thread('r-1', '/title'), { json: { title: 'Refund for order 42' } });
    const page1 = (await platform.call('GET', `${thread('r-1')}?limit=2`)).json as {
      title: string;
      turnCount: number;
      turns: Array<{ seq: number; n: number }>;
      nextCursor: string;
    };
    expect(page1).toMatchObject({ title: 'Refund for order 42', turnCount: 3 });
    expect(page1.turns.map((t) => [t.seq, t.n])).toEqual([
      [1, 1],
      [2, 2],
    ]);
    const page2 = (await platform.call('GET', `${thread('r-1')}?limit=2&cursor=${page1.nextCursor}`)).json as { turns: Array<{ seq: number }> };
    expect(page2.turns.map((t) => t.seq)).toEqual([3]);
  });

  it('answers 404 to reading or titling a conversation that does not exist', async () => {
    expect((await platform.call('GET', thread('nope'))).status).toBe(404);
    expect((await platform.call('PUT', thread('nope', '/title'), { json: { title: 'x' } })).status).toBe(404);
  });

  it('erases metadata, working memory and turns on delete (204), leaving no copy in the data files', async () => {
    const word = 'zanzibarquokka';
    await saveWorking('t-delete', `working ${word}`, 0);
    await append('t-delete', [{ role: 'user', content: `my secret word is ${word}` }]);
    // The data files are SQLite's; on PostgreSQL the rows are gone, and dead tuples until VACUUM (docs/deploying.md).
    const sqlite = testStore() === 'sqlite';
    if (sqlite) expect(dataFiles().some((f) => f.includes(word))).toBe(true);
    expect((await platform.call('DELETE', thread('t-delete'))).status).toBe(204);
    expect((await platform.call('GET', thread('t-delete'))).status).toBe(404);
    expect((await platform.call('GET', thread('t-delete', '/working'))).status).toBe(404);
    const search = await platform.call('POST', `${AGENT}/search`, { json: { query: word } });
    expect((search.json as { hits: unknown[] }).hits).toEqual([]);
    if (sqlite) expect(dataFiles().some((f) => f.includes(word))).toBe(false);
    expect((await platform.call('DELETE', thread('t-delete'))).status).toBe(404);
    // A new conversation under the key starts empty.
    expect((await saveWorking('t-delete', 'fresh', 0)).status).toBe(201);
  });
});

describe('curated memories (§4.5 rule 4)', () => {
  const memories = `${AGENT}/users/alice/memories`;
  const putMemory = (name: string, value: unknown, v: number) =>
    platform.call('PUT', `${memories}?name=${encodeURIComponent(name)}`, { body: JSON.stringify(value), headers: { 'x-object-version': String(v) } });

  it('writes memories by name with versions, lists them, and deletes them', async () => {
    const created = await putMemory('preferences/diet', { vegetarian: true }, 0);
    expect(created.status).toBe(201);
    expect((await putMemory('preferences/diet', { vegetarian: false }, 0)).status).toBe(409);
    const updated = await putMemory('preferences/diet', { vegetarian: true, vegan: true }, version(created));
    expect(updated.status).toBe(200);
    expect((await putMemory('preferences/diet', {}, version(created))).status).toBe(409);
    const list = (await platform.call('GET', memories)).json as { memories: Array<{ name: string; content: unknown; version: number }> };
    expect(list.memories).toEqual([expect.objectContaining({ name: 'preferences/diet', content: { vegetarian: true, vegan: true }, version: version(updated) })]);
    expect((await platform.call('DELETE', `${memories}?name=preferences%2Fdiet`)).status).toBe(204);
    expect((await platform.call('DELETE', `${memories}?name=preferences%2Fdiet`)).status).toBe(404);
    expect(((await platform.call('GET', memories)).json as { memories: unknown[] }).memories).toEqual([]);
  });

  it('refuses a memory that is not JSON with 400', async () => {
    const res = await platform.call('PUT', `${memories}?name=x`, { body: 'not json' });
    expect(res.status).toBe(400);
  });
});

describe('search (§4.5 rule 5, text matching)', () => {
  it('finds turns and memories by words, most relevant first, filtered by person', async () => {
    await append('s-1', [{ role: 'user', content: 'my parcel never arrived, the parcel is lost' }], 'carol');
    await append('s-2', [{ role: 'user', content: 'where is my parcel' }], 'dave');
    await platform.call('PUT', `${AGENT}/users/carol/memories?name=shipping`, { body: JSON.stringify({ note: 'prefers parcel lockers' }) });
    const all = (await platform.call('POST', `${AGENT}/search`, { json: { query: 'lost parcel' } })).json as {
      hits: Array<{ kind: string; threadKey?: string; score: number }>;
    };
    expect(all.hits[0]).toMatchObject({ kind: 'turn', threadKey: 's-1' });
    expect(all.hits.map((h) => h.kind).sort()).toEqual(['memory', 'turn', 'turn']);
    expect(all.hits.map((h) => h.score)).toEqual([...all.hits.map((h) => h.score)].sort((a, b) => b - a));
    const carol = (await platform.call('POST', `${AGENT}/search`, { json: { query: 'parcel', userId: 'carol' } })).json as { hits: Array<{ userId: string }> };
    expect(carol.hits.length).toBe(2);
    expect(carol.hits.every((h) => h.userId === 'carol')).toBe(true);
  });

  it('treats search syntax in the query as words, and refuses a query without words', async () => {
    expect((await platform.call('POST', `${AGENT}/search`, { json: { query: 'parcel" OR (NEAR' } })).status).toBe(200);
    expect((await platform.call('POST', `${AGENT}/search`, { json: { query: '?!' } })).status).toBe(400);
  });
});

describe('X-Flow-Agent-Context (§5.4)', () => {
  it('is ignored when absent and accepted when it is base64url JSON of strings', async () => {
    const res = await platform.call('GET', thread('ctx-ok', '/working'), { headers: { 'x-flow-agent-context': context({ tenantKey: 'k1' }) } });
    expect(res.status).toBe(404);
  });

  it.each([
    ['not base64url', '***'],
    ['padded base64', `${Buffer.from('{"a":"b"}').toString('base64')}=`],
    ['not JSON', Buffer.from('hello').toString('base64url')],
    ['a JSON array', context(['a'])],
    ['a non-string value', context({ a: 1 })],
  ])('refuses an unreadable header (%s) with 400 on every route, without repeating it', async (_, value) => {
    for (const [method, path] of [
      ['GET', thread('ctx', '/working')],
      ['POST', `${AGENT}/search`],
      ['GET', `${AGENT}/users/u/memories`],
    ]) {
      const res = await platform.call(method, path, { headers: { 'x-flow-agent-context': value }, ...(method === 'POST' ? { json: { query: 'x' } } : {}) });
      expect(res.status).toBe(400);
      expect(res.code).toBe('invalid_agent_context');
      expect(res.text).not.toContain(value);
    }
  });

  it('is never stored', async () => {
    const marker = 'tenant-key-d41d8cd98f00b204';
    await saveWorking('ctx-store', 'x', 0, { 'x-flow-agent-context': context({ key: marker }) });
    expect(dataFiles().some((f) => f.includes(marker) || f.includes(context({ key: marker })))).toBe(false);
  });
});
