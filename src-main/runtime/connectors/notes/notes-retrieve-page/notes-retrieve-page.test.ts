import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../../../core/runtime.ts';
import { NotesApiDouble } from '../testing/notes-api-double.ts';
import { PAGE_ID, page, status } from '../testing/notes-fixtures.ts';
import { startAgainstDouble } from '../testing/notes-runtime.ts';

let double: NotesApiDouble;
const running: Runtime[] = [];
beforeAll(async () => {
  double = await NotesApiDouble.start();
  double.pages.set(PAGE_ID, page(PAGE_ID, 'Release notes', { Status: status('Done') }));
});
afterAll(() => double.close());
afterEach(async () => {
  for (const r of running.splice(0)) await r.stop();
});

async function start(stepSettings: string) {
  const { runtime } = await startAgainstDouble(double, `  page:
    steps:
      - notes-retrieve-page: ${stepSettings}
`);
  running.push(runtime);
  return runtime;
}

describe('notes-retrieve-page', () => {
  it('puts the page and its properties in vars.notesPage and leaves the body alone', async () => {
    const runtime = await start('{connector: notes, page: body.entityId}');
    const result = await runtime.run('page', { entityId: PAGE_ID });
    expect(result.outcome).toBe('completed');
    expect(result.message.body).toEqual({ entityId: PAGE_ID });
    expect(result.message.vars.notesPage).toMatchObject({ object: 'page', id: PAGE_ID, properties: { Status: { status: { name: 'Done' } } } });
    expect(double.calls.at(-1)).toMatchObject({ method: 'GET', path: `/v1/pages/${PAGE_ID}` });
  });

  it('stores the page in the resultVar it is given', async () => {
    const runtime = await start(`{connector: notes, page: '"${PAGE_ID}"', resultVar: release}`);
    const result = await runtime.run('page');
    expect(result.message.vars.release).toMatchObject({ id: PAGE_ID });
    expect(result.message.vars.notesPage).toBeUndefined();
  });

  it('fails with the API code and message when the page is not there', async () => {
    const runtime = await start('{connector: notes, page: body.entityId}');
    const result = await runtime.run('page', { entityId: 'missing-page' });
    expect(result.outcome).toBe('failed');
    expect(result.error?.message).toBe(
      'notes API error 404 object_not_found: Could not find page with ID: missing-page. Make sure the relevant pages and databases are shared with your integration.',
    );
  });

  it('passes the message through unchanged on an API error with failOnError false', async () => {
    const runtime = await start('{connector: notes, page: body.entityId, failOnError: false}');
    const result = await runtime.run('page', { entityId: 'missing-page' }, { keep: 1 });
    expect(result.outcome).toBe('completed');
    expect(result.message.body).toEqual({ entityId: 'missing-page' });
    expect(result.message.vars).toEqual({ keep: 1 });
  });

  it('fails, whatever failOnError says, when the page expression gives no id', async () => {
    const runtime = await start('{connector: notes, page: body.entityId, failOnError: false}');
    const result = await runtime.run('page', { entityId: null });
    expect(result.error?.message).toBe('page must evaluate to a notes id (a non-empty string), got null');
  });
});
