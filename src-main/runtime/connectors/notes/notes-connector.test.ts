import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../../core/runtime.ts';
import { problemsOf } from '../../testing/load-yaml.ts';
import { NotesApiDouble } from './testing/notes-api-double.ts';
import { DATA_SOURCE_ID, PAGE_ID, page, taskRows } from './testing/notes-fixtures.ts';
import { startAgainstDouble } from './testing/notes-runtime.ts';

let double: NotesApiDouble;
const running: Runtime[] = [];
beforeAll(async () => {
  double = await NotesApiDouble.start();
  double.pages.set(PAGE_ID, page(PAGE_ID, 'Release notes'));
  double.children.set(PAGE_ID, []);
  double.dataSourceRows.set(DATA_SOURCE_ID, taskRows());
});
afterAll(() => double.close());
afterEach(async () => {
  for (const r of running.splice(0)) await r.stop();
});

const everyCall = `  all:
    steps:
      - notes-retrieve-page: {connector: notes, page: '"${PAGE_ID}"'}
      - notes-retrieve-blocks: {connector: notes, block: '"${PAGE_ID}"', resultVar: blocks}
      - notes-query-datasource: {connector: notes, dataSource: '"${DATA_SOURCE_ID}"'}
`;

async function start(flows: string, connector: Record<string, string> = {}) {
  const started = await startAgainstDouble(double, flows, connector);
  running.push(started.runtime);
  return started;
}

describe('the notes connector', () => {
  it('sends the token as a Bearer credential and Notes-Version 2025-09-03 on every request by default', async () => {
    const { runtime } = await start(everyCall);
    const before = double.calls.length;
    expect((await runtime.run('all')).outcome).toBe('completed');
    const calls = double.calls.slice(before);
    expect(calls).toHaveLength(3);
    for (const call of calls) {
      expect(call.headers.authorization).toBe(`Bearer ${double.token}`);
      expect(call.headers['notes-version']).toBe('2025-09-03');
    }
  });

  it('sends the configured notesVersion', async () => {
    const { runtime } = await start(everyCall, { notesVersion: '"2026-01-15"' });
    const before = double.calls.length;
    await runtime.run('all');
    expect(double.calls.slice(before).map((c) => c.headers['notes-version'])).toEqual(['2026-01-15', '2026-01-15', '2026-01-15']);
  });

  it('fails with the API code and message on a wrong token, never showing the token', async () => {
    const { runtime, logs } = await start(everyCall, { token: 'ntn_wrong_token_value' });
    const result = await runtime.run('all');
    expect(result.outcome).toBe('failed');
    expect(result.error?.message).toBe('notes API error 401 unauthorized: API token is invalid.');
    expect(JSON.stringify([result, logs, runtime.describe()])).not.toContain('ntn_wrong_token_value');
  });

  it('bounds each call by timeout', async () => {
    const { runtime } = await start(everyCall, { timeout: '100ms' });
    double.delayMs = 5000;
    const started = Date.now();
    try {
      const result = await runtime.run('all');
      expect(result.error?.message).toBe(`notes API error timeout: GET /pages/${PAGE_ID} took longer than 100ms`);
      // Well under the 5 s the answer would take: the timeout cut it, however busy the machine.
      expect(Date.now() - started).toBeLessThan(2500);
    } finally {
      double.delayMs = 0;
    }
  });

  it('reports an unreachable API as a failed call, which failOnError false passes through', async () => {
    const closed = await NotesApiDouble.start();
    const url = closed.baseURL;
    await closed.close();
    const { runtime } = await start(`  page:
    steps:
      - notes-retrieve-page: {connector: notes, page: '"p"'}
  lenient:
    steps:
      - notes-retrieve-page: {connector: notes, page: '"p"', failOnError: false}
`, { apiBaseURL: url });
    expect((await runtime.run('page')).error?.message).toMatch(/^notes API error request_failed: GET \/pages\/p: /);
    expect((await runtime.run('lenient', { a: 1 })).message.body).toEqual({ a: 1 });
  });

  it('describes its API base, version and verification state, never the token', async () => {
    const { runtime } = await start(everyCall);
    expect(runtime.describe().connectors).toEqual([
      { name: 'notes', type: 'notes', details: { apiBaseURL: double.baseURL, notesVersion: '2025-09-03', verification: 'awaiting handshake' } },
    ]);
  });
});

describe('notes connector settings', () => {
  const yaml = (settings: string) => `connectors:\n  notes: {type: notes, ${settings}}\n`;

  it('tells the user to quote a notesVersion that YAML read as a date', () => {
    expect(problemsOf(yaml('token: t, notesVersion: 2025-09-03'))).toEqual([
      'flows.yaml:2:48 connectors.notes.notesVersion: YAML read this as a date (2025-09-03T00:00:00.000Z); quote it to keep it a string, e.g. "2025-09-03"',
    ]);
  });

  it('requires a token and refuses a version that is not a date, an empty token and a non-http API base', () => {
    expect(problemsOf(yaml('notesVersion: "latest"'))).toEqual([
      expect.stringMatching(/^flows\.yaml:2:10 connectors\.notes\.token: missing required setting "token"/),
    ]);
    expect(problemsOf(yaml(`token: '', notesVersion: "latest", apiBaseURL: ftp://x`))).toEqual([
      'flows.yaml:2:10 connectors.notes: token is empty; bind the integration token, e.g. token: ${NOTES_TOKEN}',
      'flows.yaml:2:10 connectors.notes: notesVersion "latest" is not a version date such as "2025-09-03"',
      'flows.yaml:2:10 connectors.notes: apiBaseURL "ftp://x" is not an http(s) URL',
    ]);
  });

  it('validates settings bound to variables that have no value yet', () => {
    const text = `env:
  NOTES_TOKEN: {required: true, secret: true}
  NOTES_VERSION: {}
  NOTES_VERIFICATION_TOKEN: {secret: true}
  RESULT: {}
connectors:
  notes: {type: notes, token: '\${NOTES_TOKEN}', notesVersion: '\${NOTES_VERSION}', verificationToken: '\${NOTES_VERIFICATION_TOKEN}'}
flows:
  a:
    steps:
      - notes-query-datasource: {connector: notes, dataSource: '"d"', resultVar: '\${RESULT}'}
      - notes-retrieve-page: {connector: notes, page: '"p"', resultVar: '\${RESULT}'}
`;
    expect(problemsOf(text, 'validate')).toEqual([]);
    expect(problemsOf(text, 'run', { NOTES_TOKEN: 't', NOTES_VERSION: '2025-10-01', RESULT: 'rows' })).toEqual([]);
    expect(problemsOf(text, 'run', { NOTES_TOKEN: 't', NOTES_VERSION: 'v1', RESULT: 'rows' })[0]).toBe(
      'flows.yaml:7:10 connectors.notes: notesVersion "v1" is not a version date such as "2025-09-03"',
    );
  });

  it('checks that blocks name a notes connector', () => {
    expect(problemsOf(`connectors:
  notes: {type: notes, token: t}
flows:
  a:
    steps:
      - notes-retrieve-page: {connector: notez, page: body.id}
      - notes-retrieve-page: {page: body.id}
`)).toEqual([
      'flows.yaml:6:42 flows.a.steps[0].notes-retrieve-page.connector: no connector named "notez"; notes connectors: notes',
      expect.stringMatching(/^flows\.yaml:7:30 flows\.a\.steps\[1\]\.notes-retrieve-page\.connector: missing required setting "connector"/),
    ]);
  });

  it('keeps the API base out of the editor but still validates it', async () => {
    const { notesConnectorDef, NOTES_API_URL } = await import('./notes-connector.def.ts');
    expect(notesConnectorDef.settings.apiBaseURL).toMatchObject({ hidden: true, default: 'https://api.notes.example/v1' });
    expect(NOTES_API_URL).toBe('https://api.notes.example/v1');
  });
});
