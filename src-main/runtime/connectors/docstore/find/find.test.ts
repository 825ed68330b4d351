import { ObjectId } from 'mongodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { serverSuite, serverUri } from '../testing/docstore-test-server.ts';

const ids = ['65f000000000000000000001', '65f000000000000000000002', '65f000000000000000000003', '65f000000000000000000004'].map((h) => new ObjectId(h));

describe.skipIf(!serverUri)('docstore-find against a real server', () => {
  const suite = serverSuite(
    'find',
    `  find:
    steps:
      - docstore-find:
          connector: store
          collection: '"people"'
          filter: 'has(body.filter) ? body.filter : {}'
          projection: 'has(body.projection) ? body.projection : null'
          sort: 'has(body.sort) ? body.sort : null'
  one:
    steps:
      - docstore-find: {connector: store, collection: '"people"', filter: body, single: true}
  page:
    steps:
      - docstore-find:
          connector: store
          collection: '"people"'
          filter: 'has(vars.after) ? {"_id": {"$gt": vars.after}} : {}'
          sort: '{"_id": 1}'
          limit: 2
  second:
    steps:
      - docstore-find: {connector: store, collection: '"people"', sort: '{"_id": 1}', skip: 1, limit: 1, resultVar: found}
`,
  );

  beforeAll(async () => {
    await suite.db.collection('people').insertMany([
      { _id: ids[0], name: 'Ada', team: 'b', age: 36 },
      { _id: ids[1], name: 'Grace', team: 'a', age: 85 },
      { _id: ids[2], name: 'Linus', team: 'b', age: 28 },
      { _id: ids[3], name: 'Barbara', team: 'a', age: 41 },
    ]);
  });

  it('returns the matching documents as a list of relaxed extended JSON', async () => {
    const result = await suite.runtime.run('find', { filter: { name: 'Ada' } });
    expect(result.outcome).toBe('completed');
    expect(result.message.body).toEqual([{ _id: { $oid: ids[0].toHexString() }, name: 'Ada', team: 'b', age: 36 }]);
  });

  it('returns an empty list, never null, when nothing matched', async () => {
    expect((await suite.runtime.run('find', { filter: { name: 'Nobody' } })).message.body).toEqual([]);
  });

  it('with single returns the first match, or null when none matched', async () => {
    expect((await suite.runtime.run('one', { team: 'a' })).message.body).toMatchObject({ team: 'a' });
    const none = await suite.runtime.run('one', { team: 'z' });
    expect(none.outcome).toBe('completed');
    expect(none.message.body).toBeNull();
  });

  it('sorts by several keys in the order of a list of single-key objects', async () => {
    const result = await suite.runtime.run('find', { sort: [{ team: 1 }, { age: -1 }], projection: { _id: 0, name: 1 } });
    expect(result.message.body).toEqual([{ name: 'Grace' }, { name: 'Barbara' }, { name: 'Ada' }, { name: 'Linus' }]);
  });

  it('projects fields', async () => {
    const result = await suite.runtime.run('find', { filter: { team: 'b' }, projection: { name: 1, _id: 0 }, sort: { name: 1 } });
    expect(result.message.body).toEqual([{ name: 'Ada' }, { name: 'Linus' }]);
  });

  it('hands a document it read back as a filter unchanged', async () => {
    const [first] = (await suite.runtime.run('find', { filter: { name: 'Grace' } })).message.body as unknown[];
    const again = await suite.runtime.run('one', first);
    expect(again.message.body).toEqual(first);
  });

  it('pages by range: the last _id of a page goes into the next filter with $gt', async () => {
    const page1 = (await suite.runtime.run('page')).message.body as Array<{ _id: unknown }>;
    expect(page1.map((d) => d._id)).toEqual([{ $oid: ids[0].toHexString() }, { $oid: ids[1].toHexString() }]);
    const page2 = (await suite.runtime.run('page', null, { after: page1[1]._id })).message.body as Array<{ _id: unknown }>;
    expect(page2.map((d) => d._id)).toEqual([{ $oid: ids[2].toHexString() }, { $oid: ids[3].toHexString() }]);
    expect((await suite.runtime.run('page', null, { after: page2[1]._id })).message.body).toEqual([]);
  });

  it('skips and limits, and puts the result in resultVar leaving the body alone', async () => {
    const result = await suite.runtime.run('second', { keep: true });
    expect(result.message.body).toEqual({ keep: true });
    expect(result.message.vars.found).toEqual([expect.objectContaining({ name: 'Grace' })]);
  });
});
