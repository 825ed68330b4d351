import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../../core/runtime.ts';
import { problemsOf, startYaml } from '../../testing/load-yaml.ts';
import { closedPort, watchDriverCalls } from './testing/docstore-test-server.ts';

/**
 * Every refusal of spec 3 §7 happens before the driver is called. The connector points at a
 * closed port with verifyOnStart false: a driver call would wait out the timeout and fail with
 * "could not reach", and the spy on every collection operation stays at zero.
 */
const refusals: Array<[string, string, unknown, string]> = [
  [
    'a sort object with several keys',
    `docstore-find: {connector: store, collection: '"c"', sort: '{"a": 1, "b": -1}'}`,
    null,
    'docstore-find refused: sort is an object with 2 keys (a, b) and an object does not keep key order; write a list of single-key objects in the order to sort by, e.g. [{"a": 1}, {"b": -1}]',
  ],
  [
    'a sort list item with several keys',
    `docstore-find: {connector: store, collection: '"c"', sort: '[{"a": 1, "b": 1}]'}`,
    null,
    'docstore-find refused: sort[0] must be an object with one key, e.g. {"createdAt": -1}; got an object with 2 keys',
  ],
  [
    'a filter that is not an object',
    `docstore-find: {connector: store, collection: '"c"', filter: 'body'}`,
    ['x'],
    'docstore-find refused: filter must evaluate to an object or null, got a list of 1',
  ],
  [
    'a filter holding an $oid that is not 24 hex digits',
    `docstore-find: {connector: store, collection: '"c"', filter: '{"_id": {"$oid": body}}'}`,
    'nope',
    'docstore-find refused: filter is not valid extended JSON: input must be a 24 character hex string, 12 byte Uint8Array, or an integer',
  ],
  [
    'a collection that is not a string',
    `docstore-find: {connector: store, collection: 'body'}`,
    null,
    'docstore-find refused: collection must evaluate to a non-empty string, got null',
  ],
  [
    'a document that is not an object',
    `docstore-insert: {connector: store, collection: '"c"', document: 'body'}`,
    'text',
    'docstore-insert refused: document must be an object, got a string',
  ],
  [
    'a list holding something other than objects',
    `docstore-insert: {connector: store, collection: '"c"', document: 'body'}`,
    [{ a: 1 }, 2],
    'docstore-insert refused: document[1] must be an object, got a number',
  ],
  [
    'a plain object as update',
    `docstore-update: {connector: store, collection: '"c"', filter: '{}', update: '{"status": "done", "n": 1}'}`,
    null,
    'docstore-update refused: update is a plain object without update operators (fields status, n); to change those fields wrap them in $set, e.g. {"$set": {"status":"…","n":"…"}}, or use replacement: to replace the whole document',
  ],
  [
    'an update mixing operators and fields',
    `docstore-update: {connector: store, collection: '"c"', filter: '{}', update: '{"$set": {"a": 1}, "b": 2}'}`,
    null,
    'docstore-update refused: update mixes operators ($set) with plain fields (b); put the fields inside an operator such as $set',
  ],
  [
    'many with replacement',
    `docstore-update: {connector: store, collection: '"c"', filter: '{}', replacement: '{"a": 1}', many: true}`,
    null,
    'docstore-update refused: many: true is not available with replacement (a replacement swaps one document); use update: with operators to change every match',
  ],
  [
    'a replacement holding operators',
    `docstore-update: {connector: store, collection: '"c"', filter: '{}', replacement: '{"$set": {"a": 1}}'}`,
    null,
    'docstore-update refused: replacement holds update operators ($set); use update: for an operator update',
  ],
  [
    'an empty filter deleting many without deleteAll',
    `docstore-delete: {connector: store, collection: '"c"', filter: '{}', many: true}`,
    null,
    'docstore-delete refused: the filter is empty and many is true, which would delete every document; set deleteAll: true if that is meant',
  ],
  [
    'a pipeline that is a bare stage',
    `docstore-aggregate: {connector: store, collection: '"c"', pipeline: '{"$match": {}}'}`,
    null,
    'docstore-aggregate refused: pipeline must be a list of stages, even for one stage; write [{"$match": …}] instead of {"$match": …}',
  ],
  [
    'limit with a pipeline ending in $out',
    `docstore-aggregate: {connector: store, collection: '"c"', pipeline: '[{"$match": {}}, {"$out": "copy"}]', limit: 5}`,
    null,
    'docstore-aggregate refused: limit cannot be combined with a pipeline ending in $out (nothing may follow $out); put a {"$limit": …} stage before $out instead',
  ],
  [
    'limit with a pipeline ending in $merge',
    `docstore-aggregate: {connector: store, collection: '"c"', pipeline: '[{"$merge": {"into": "copy"}}]', limit: 5}`,
    null,
    'docstore-aggregate refused: limit cannot be combined with a pipeline ending in $merge (nothing may follow $merge); put a {"$limit": …} stage before $merge instead',
  ],
  [
    'a top-level $sort object with several keys',
    `docstore-aggregate: {connector: store, collection: '"c"', pipeline: '[{"$sort": {"a": 1, "b": 1}}]'}`,
    null,
    'docstore-aggregate refused: pipeline[0].$sort is an object with 2 keys (a, b) and an object does not keep key order; write a list of single-key objects in the order to sort by, e.g. [{"a": 1}, {"b": 1}]',
  ],
];

describe('docstore refusals, made before any driver call', () => {
  let runtime: Runtime;
  let driver: ReturnType<typeof watchDriverCalls>;

  beforeAll(async () => {
    const port = await closedPort();
    const flows = refusals.map(([, step], i) => `  r${i}:\n    steps:\n      - ${step}`).join('\n');
    ({ runtime } = await startYaml(`connectors:
  store: {type: docstore, uri: "mongodb://127.0.0.1:${port}/shop", verifyOnStart: false, timeout: 3s}
flows:
  empty-insert:
    steps:
      - docstore-insert: {connector: store, collection: '"c"', document: '[]'}
${flows}
`));
    driver = watchDriverCalls();
  });
  afterAll(async () => {
    driver.restore();
    await runtime.stop();
  });

  it.each(refusals.map((r, i) => [r[0], i, r[2], r[3]] as const))('refuses %s', async (_name, i, body, expected) => {
    const t0 = Date.now();
    const result = await runtime.run(`r${i}`, body);
    expect(result.outcome).toBe('failed');
    expect(result.error?.message).toBe(expected);
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(driver.count()).toBe(0);
  });

  it('inserts nothing for an empty list and answers count 0 with an empty list', async () => {
    const result = await runtime.run('empty-insert');
    expect(result.outcome).toBe('completed');
    expect(result.message.body).toEqual({ insertedCount: 0, insertedIds: [] });
    expect(driver.count()).toBe(0);
  });
});

describe('docstore combinations refused at startup', () => {
  const yaml = (step: string) => `connectors:
  store: {type: docstore, uri: "mongodb://127.0.0.1:27017/shop"}
flows:
  a:
    steps:
      - ${step}
`;

  it('refuses an update block with both update and replacement, or neither', () => {
    expect(problemsOf(yaml(`docstore-update: {connector: store, collection: '"c"', filter: '{}', update: '{"$set": {"a": 1}}', replacement: '{"a": 1}'}`))).toEqual([
      'flows.yaml:6:26 flows.a.steps[0].docstore-update: give either update (operators or a pipeline) or replacement (a whole document), not both',
    ]);
    expect(problemsOf(yaml(`docstore-update: {connector: store, collection: '"c"', filter: '{}'}`))).toEqual([
      'flows.yaml:6:26 flows.a.steps[0].docstore-update: needs update (operators or a pipeline) or replacement (a whole document)',
    ]);
  });

  it('refuses a zero timeout and a pool whose minimum exceeds its maximum', () => {
    expect(problemsOf('connectors:\n  store: {type: docstore, uri: "mongodb://h/db", timeout: 0, minPoolSize: 9, maxPoolSize: 4}\n')).toEqual([
      'flows.yaml:2:10 connectors.store: timeout must be more than 0, e.g. 30s',
      'flows.yaml:2:10 connectors.store: minPoolSize (9) cannot exceed maxPoolSize (4)',
    ]);
  });

  it('requires a filter on delete even with deleteAll', () => {
    expect(problemsOf(yaml(`docstore-delete: {connector: store, collection: '"c"', many: true, deleteAll: true}`))).toEqual([
      'flows.yaml:6:26 flows.a.steps[0].docstore-delete.filter: missing required setting "filter" (Selects the documents; required even with deleteAll.)',
    ]);
  });
});
