import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../../../core/runtime.ts';
import { problemsOf } from '../../../testing/load-yaml.ts';
import { NotesApiDouble } from '../testing/notes-api-double.ts';
import { DATABASE_ID, DATA_SOURCE_ID, SECOND_DATA_SOURCE_ID, database, page, taskRows } from '../testing/notes-fixtures.ts';
import { startAgainstDouble } from '../testing/notes-runtime.ts';

const EMPTY_DATABASE_ID = '6e5f7081-92a3-4db4-8fd0-4b5c6d7e8f90';
let double: NotesApiDouble;
const running: Runtime[] = [];
beforeAll(async () => {
  double = await NotesApiDouble.start();
  double.databases.set(DATABASE_ID, database(DATABASE_ID, [{ id: DATA_SOURCE_ID, name: 'Tasks' }, { id: SECOND_DATA_SOURCE_ID, name: 'Archive' }]));
  double.databases.set(EMPTY_DATABASE_ID, database(EMPTY_DATABASE_ID, []));
  double.dataSourceRows.set(DATA_SOURCE_ID, taskRows());
  double.dataSourceRows.set(SECOND_DATA_SOURCE_ID, [page('a0000000-0000-4000-8000-0000000000ff', 'Old task')]);
});
afterAll(() => double.close());
afterEach(async () => {
  for (const r of running.splice(0)) await r.stop();
});

async function start(stepSettings: string, connector: Record<string, string> = {}) {
  const { runtime } = await startAgainstDouble(double, `  query:
    steps:
      - notes-query-datasource: ${stepSettings}
`, connector);
  running.push(runtime);
  return runtime;
}

const titles = (envelope: unknown) =>
  (envelope as { results: Array<{ properties: { Name: { title: Array<{ plain_text: string }> } } }> }).results.map((r) => r.properties.Name.title[0].plain_text);

describe('notes-query-datasource', () => {
  it('posts the filter, sorts and page size built from CEL and puts the envelope in vars.notesResults', async () => {
    const runtime = await start(`
          connector: notes
          dataSource: vars.source
          filter: '{"property": "Status", "status": {"equals": body.wanted}}'
          sorts: '[{"property": "Points", "direction": "descending"}]'
          pageSize: 1`);
    const before = double.calls.length;
    const result = await runtime.run('query', { wanted: 'Done' }, { source: DATA_SOURCE_ID });
    expect(result.outcome).toBe('completed');
    const calls = double.calls.slice(before);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      method: 'POST',
      path: `/v1/data_sources/${DATA_SOURCE_ID}/query`,
      body: { filter: { property: 'Status', status: { equals: 'Done' } }, sorts: [{ property: 'Points', direction: 'descending' }], page_size: 1 },
    });
    expect(calls[0].headers['content-type']).toBe('application/json');
    const envelope = result.message.vars.notesResults as { object: string; has_more: boolean; next_cursor: string };
    expect(envelope).toMatchObject({ object: 'list', has_more: true, type: 'page_or_data_source' });
    expect(titles(envelope)).toEqual(['Render markdown']);
    expect(result.message.body).toEqual({ wanted: 'Done' });
  });

  it('sends an empty query when no filter, sorts or page size are set, into the given resultVar', async () => {
    const runtime = await start(`{connector: notes, dataSource: '"${DATA_SOURCE_ID}"', resultVar: tasks}`);
    const before = double.calls.length;
    const result = await runtime.run('query');
    expect(double.calls[before].body).toEqual({});
    expect(titles(result.message.vars.tasks)).toEqual(['Write spec', 'Build double', 'Render markdown', 'Ship']);
  });

  it('with database, retrieves the database once and queries its first data source', async () => {
    const runtime = await start(`{connector: notes, database: body.db, sorts: '[{"timestamp": "last_edited_time", "direction": "ascending"}]'}`);
    const before = double.calls.length;
    const result = await runtime.run('query', { db: DATABASE_ID });
    expect(double.calls.slice(before).map((c) => `${c.method} ${c.path}`)).toEqual([`GET /v1/databases/${DATABASE_ID}`, `POST /v1/data_sources/${DATA_SOURCE_ID}/query`]);
    expect(titles(result.message.vars.notesResults)).toEqual(['Write spec', 'Render markdown', 'Build double', 'Ship']);
  });

  it('fails when the database lists no data source, or passes through with failOnError false', async () => {
    const strict = await start(`{connector: notes, database: '"${EMPTY_DATABASE_ID}"'}`);
    expect((await strict.run('query')).error?.message).toBe(`notes API error no_data_source: database ${EMPTY_DATABASE_ID} lists no data source to query`);
    const lenient = await start(`{connector: notes, database: '"${EMPTY_DATABASE_ID}"', failOnError: false}`);
    const passed = await lenient.run('query', { a: 1 });
    expect(passed.outcome).toBe('completed');
    expect(passed.message.vars).toEqual({});
  });

  it('fails with the code and message of a validation error, or leaves the message unchanged with failOnError false', async () => {
    const strict = await start(`{connector: notes, dataSource: '"${DATA_SOURCE_ID}"', filter: '{"or": "nonsense", "property": 1}'}`);
    const failed = await strict.run('query');
    expect(failed.outcome).toBe('failed');
    expect(failed.error?.message).toBe('notes API error 400 validation_error: body.filter.property should be defined.');

    const lenient = await start(`{connector: notes, dataSource: '"nope"', failOnError: false}`);
    const passed = await lenient.run('query', { keep: true }, { notesResults: 'previous' });
    expect(passed.outcome).toBe('completed');
    expect(passed.message.body).toEqual({ keep: true });
    expect(passed.message.vars).toEqual({ notesResults: 'previous' });
  });

  it('fails when filter or sorts produce the wrong kind of value', async () => {
    const badFilter = await start(`{connector: notes, dataSource: '"${DATA_SOURCE_ID}"', filter: '[1]'}`);
    expect((await badFilter.run('query')).error?.message).toMatch(/^filter must produce an object, got a list/);
    const badSorts = await start(`{connector: notes, dataSource: '"${DATA_SOURCE_ID}"', sorts: '{"property": "Points"}'}`);
    expect((await badSorts.run('query')).error?.message).toMatch(/^sorts must produce a list of sort objects/);
  });

  it('refuses both or neither of dataSource and database, and a page size over the service maximum, at load', () => {
    const yaml = (settings: string) => `connectors:
  notes: {type: notes, token: t}
flows:
  query:
    steps:
      - notes-query-datasource: ${settings}
`;
    expect(problemsOf(yaml(`{connector: notes, dataSource: '"a"', database: '"b"'}`))).toEqual([
      'flows.yaml:6:33 flows.query.steps[0].notes-query-datasource: give only one of dataSource or database, not both',
    ]);
    expect(problemsOf(yaml('{connector: notes}'))).toEqual(['flows.yaml:6:33 flows.query.steps[0].notes-query-datasource: give one of dataSource or database']);
    expect(problemsOf(yaml(`{connector: notes, dataSource: '"a"', pageSize: 101}`))).toEqual([
      'flows.yaml:6:81 flows.query.steps[0].notes-query-datasource.pageSize: must be at most 100, got 101',
    ]);
  });

  it('refuses, at load, a connector pinned to a notes version older than the data-sources API', () => {
    expect(problemsOf(`connectors:
  notes: {type: notes, token: t, notesVersion: "2022-06-28"}
flows:
  query:
    steps:
      - notes-query-datasource: {connector: notes, dataSource: '"a"'}
`)).toEqual([
      'flows.yaml:6:9 flows.query.steps[0].notes-query-datasource: the data-sources query API needs notesVersion 2025-09-03 or later; connector "notes" sends 2022-06-28',
    ]);
  });
});
