import { beforeEach, describe, expect, it } from 'vitest';
import { serverSuite, serverUri } from '../testing/docstore-test-server.ts';

describe.skipIf(!serverUri)('docstore-update against a real server', () => {
  const suite = serverSuite(
    'update',
    `  set-status:
    steps:
      - docstore-update:
          connector: store
          collection: '"tasks"'
          filter: '{"team": body.team}'
          update: '{"$set": {"status": body.status}}'
  set-status-all:
    steps:
      - docstore-update:
          connector: store
          collection: '"tasks"'
          filter: '{"team": body.team}'
          update: '{"$set": {"status": body.status}}'
          many: true
  upsert:
    steps:
      - docstore-update:
          connector: store
          collection: '"tasks"'
          filter: '{"team": body.team}'
          update: '{"$set": {"status": "new"}}'
          upsert: true
          resultVar: updated
  replace:
    steps:
      - docstore-update:
          connector: store
          collection: '"tasks"'
          filter: '{"_id": "t1"}'
          replacement: '{"title": "rewritten"}'
  pipeline:
    steps:
      - docstore-update:
          connector: store
          collection: '"tasks"'
          filter: '{"_id": "t1"}'
          update: '[{"$set": {"status": "piped"}}]'
`,
  );

  beforeEach(async () => {
    await suite.db.collection('tasks').deleteMany({});
    await suite.db.collection<{ _id: string; team: string; status: string; title: string }>('tasks').insertMany([
      { _id: 't1', team: 'a', status: 'open', title: 'one' },
      { _id: 't2', team: 'a', status: 'open', title: 'two' },
      { _id: 't3', team: 'b', status: 'open', title: 'three' },
    ]);
  });

  it('updates the first match with an operator object; upsertedId is present and null', async () => {
    const result = await suite.runtime.run('set-status', { team: 'a', status: 'done' });
    expect(result.message.body).toEqual({ matchedCount: 1, modifiedCount: 1, upsertedCount: 0, upsertedId: null });
    expect(await suite.db.collection('tasks').countDocuments({ status: 'done' })).toBe(1);
  });

  it('updates every match with many', async () => {
    const result = await suite.runtime.run('set-status-all', { team: 'a', status: 'done' });
    expect(result.message.body).toEqual({ matchedCount: 2, modifiedCount: 2, upsertedCount: 0, upsertedId: null });
  });

  it('inserts when nothing matched with upsert, answering the new id in the $oid shape', async () => {
    const result = await suite.runtime.run('upsert', { team: 'z' }, {});
    expect(result.message.vars.updated).toEqual({ matchedCount: 0, modifiedCount: 0, upsertedCount: 1, upsertedId: { $oid: expect.stringMatching(/^[0-9a-f]{24}$/) } });
    expect(await suite.db.collection('tasks').findOne({ team: 'z' })).toMatchObject({ status: 'new' });
  });

  it('replaces the whole document, keeping only _id', async () => {
    const result = await suite.runtime.run('replace');
    expect(result.message.body).toEqual({ matchedCount: 1, modifiedCount: 1, upsertedCount: 0, upsertedId: null });
    expect(await suite.db.collection<{ _id: string }>('tasks').findOne({ _id: 't1' })).toEqual({ _id: 't1', title: 'rewritten' });
  });

  it('passes an aggregation pipeline through as the update (server-limited on FerretDB v1)', async () => {
    const result = await suite.runtime.run('pipeline');
    if (result.outcome === 'failed') {
      // FerretDB v1 has no pipeline updates; this is its exact answer. MongoDB applies the pipeline.
      expect(result.error?.message).toMatch(/failed: BSON field 'update\.updates\.u' is the wrong type 'array', expected type 'object'$/);
      return;
    }
    expect(result.message.body).toEqual({ matchedCount: 1, modifiedCount: 1, upsertedCount: 0, upsertedId: null });
  });
});
