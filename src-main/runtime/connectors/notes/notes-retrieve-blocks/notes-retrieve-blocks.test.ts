import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../../../core/runtime.ts';
import { NotesApiDouble } from '../testing/notes-api-double.ts';
import { LONG_PAGE_ID, PAGE_ID, block, everySupportedBlock, longPage } from '../testing/notes-fixtures.ts';
import { startAgainstDouble } from '../testing/notes-runtime.ts';

const HUGE_PAGE_ID = 'ffff0000-0000-4000-8000-000000000000';
let double: NotesApiDouble;
const running: Runtime[] = [];
beforeAll(async () => {
  double = await NotesApiDouble.start();
  double.children.set(PAGE_ID, everySupportedBlock());
  double.children.set(LONG_PAGE_ID, longPage(250));
});
afterAll(() => double.close());
afterEach(async () => {
  for (const r of running.splice(0)) await r.stop();
});

async function start(stepSettings: string) {
  const started = await startAgainstDouble(double, `  blocks:
    steps:
      - notes-retrieve-blocks: ${stepSettings}
`);
  running.push(started.runtime);
  return started;
}

const callsSince = (n: number) => double.calls.slice(n);

describe('notes-retrieve-blocks', () => {
  it('follows has_more and next_cursor at 100 blocks per request and replaces the body with {results}', async () => {
    const { runtime } = await start('{connector: notes, block: body.entityId}');
    const before = double.calls.length;
    const result = await runtime.run('blocks', { entityId: LONG_PAGE_ID });
    expect(result.outcome).toBe('completed');
    const body = result.message.body as { results: Array<{ paragraph: { rich_text: Array<{ plain_text: string }> } }> };
    expect(Object.keys(body)).toEqual(['results']);
    expect(body.results).toHaveLength(250);
    expect(body.results.map((b) => b.paragraph.rich_text[0].plain_text).slice(98, 102)).toEqual(['Line 99', 'Line 100', 'Line 101', 'Line 102']);
    const calls = callsSince(before);
    expect(calls.map((c) => c.path)).toEqual(Array(3).fill(`/v1/blocks/${LONG_PAGE_ID}/children`));
    expect(calls.map((c) => c.query.page_size)).toEqual(['100', '100', '100']);
    expect(calls[0].query.start_cursor).toBeUndefined();
    expect(calls[1].query.start_cursor).toBe((longPageBlock(100) as { id: string }).id);
  });

  it('stores {results} in resultVar when set and leaves the body', async () => {
    const { runtime } = await start('{connector: notes, block: body.entityId, resultVar: content}');
    const result = await runtime.run('blocks', { entityId: PAGE_ID });
    expect(result.message.body).toEqual({ entityId: PAGE_ID });
    expect((result.message.vars.content as { results: unknown[] }).results).toHaveLength(everySupportedBlock().length);
  });

  it('replaces the body when resultVar is empty', async () => {
    const { runtime } = await start(`{connector: notes, block: body.entityId, resultVar: ''}`);
    const result = await runtime.run('blocks', { entityId: PAGE_ID });
    expect((result.message.body as { results: unknown[] }).results).toHaveLength(everySupportedBlock().length);
  });

  it('stops after 100 requests (10,000 blocks) and says so in the log', async () => {
    double.children.set(HUGE_PAGE_ID, Array.from({ length: 10_050 }, () => block('divider', {}, HUGE_PAGE_ID)));
    const { runtime, logs } = await start('{connector: notes, block: body.entityId}');
    const before = double.calls.length;
    const result = await runtime.run('blocks', { entityId: HUGE_PAGE_ID });
    expect(result.outcome).toBe('completed');
    expect((result.message.body as { results: unknown[] }).results).toHaveLength(10_000);
    expect(callsSince(before)).toHaveLength(100);
    expect(logs.find((l) => l.msg.startsWith('notes-retrieve-blocks stopped at the page limit'))).toMatchObject({ level: 'warn', pages: 100, blocks: 10_000 });
  });

  it('fails with the API error when a later page fails, or passes the message through unchanged with failOnError false', async () => {
    const strict = await start('{connector: notes, block: body.entityId}');
    double.failNext(429, 'rate_limited', 'This request exceeds the number of requests allowed.', 1);
    const failed = await strict.runtime.run('blocks', { entityId: LONG_PAGE_ID });
    expect(failed.outcome).toBe('failed');
    expect(failed.error?.message).toBe('notes API error 429 rate_limited: This request exceeds the number of requests allowed.');

    const lenient = await start('{connector: notes, block: body.entityId, failOnError: false}');
    double.failNext(500, 'internal_server_error', 'Unexpected error.', 2);
    const passed = await lenient.runtime.run('blocks', { entityId: LONG_PAGE_ID }, { trace: 't-1' });
    expect(passed.outcome).toBe('completed');
    expect(passed.message.body).toEqual({ entityId: LONG_PAGE_ID });
    expect(passed.message.vars).toEqual({ trace: 't-1' });
  });
});

function longPageBlock(index: number): Record<string, unknown> {
  return double.children.get(LONG_PAGE_ID)![index];
}
