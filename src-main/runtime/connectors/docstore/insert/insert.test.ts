import { ObjectId } from 'mongodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { serverSuite, serverUri } from '../testing/docstore-test-server.ts';

describe.skipIf(!serverUri)('docstore-insert against a real server', () => {
  const suite = serverSuite(
    'insert',
    `  insert:
    steps:
      - docstore-insert: {connector: store, collection: '"items"', document: body}
  insert-unordered:
    steps:
      - docstore-insert: {connector: store, collection: '"items"', document: body, unordered: true, resultVar: inserted}
`,
  );

  beforeEach(async () => {
    await suite.db.collection('items').deleteMany({});
  });

  it('inserts one object and answers its new id in a list', async () => {
    const result = await suite.runtime.run('insert', { name: 'pen' });
    expect(result.outcome).toBe('completed');
    const body = result.message.body as { insertedCount: number; insertedIds: Array<{ $oid: string }> };
    expect(body).toEqual({ insertedCount: 1, insertedIds: [{ $oid: expect.stringMatching(/^[0-9a-f]{24}$/) }] });
    const stored = await suite.db.collection('items').findOne({ _id: new ObjectId(body.insertedIds[0].$oid) });
    expect(stored).toMatchObject({ name: 'pen' });
  });

  it('inserts every object of a list, keeping ids the documents bring', async () => {
    const result = await suite.runtime.run('insert', [{ _id: 'a' }, { _id: { $oid: '65f000000000000000000009' } }, { name: 'no id' }]);
    const body = result.message.body as { insertedCount: number; insertedIds: unknown[] };
    expect(body.insertedCount).toBe(3);
    expect(body.insertedIds.slice(0, 2)).toEqual(['a', { $oid: '65f000000000000000000009' }]);
    expect(body.insertedIds[2]).toEqual({ $oid: expect.stringMatching(/^[0-9a-f]{24}$/) });
    expect(await suite.db.collection('items').countDocuments()).toBe(3);
  });

  it('fails an ordered batch at the first bad document, saying how many landed', async () => {
    const result = await suite.runtime.run('insert', [{ _id: 1 }, { _id: 2 }, { _id: 1 }, { _id: 3 }, { _id: 4 }]);
    expect(result.outcome).toBe('failed');
    expect(result.error?.message).toMatch(/^2 of 5 documents inserted; docstore-insert on flowtest_insert_\w+\.items failed: E11000 duplicate key error/);
    expect(await suite.db.collection('items').countDocuments()).toBe(2);
  });

  it('keeps going past a bad document with unordered, and still fails saying how many landed', async () => {
    const result = await suite.runtime.run('insert-unordered', [{ _id: 1 }, { _id: 2 }, { _id: 1 }, { _id: 3 }, { _id: 4 }]);
    expect(result.outcome).toBe('failed');
    expect(result.error?.message).toMatch(/^4 of 5 documents inserted; /);
    expect(await suite.db.collection('items').countDocuments()).toBe(4);
  });

  it('says none landed when a single document is refused', async () => {
    await suite.runtime.run('insert', { _id: 'dup' });
    const result = await suite.runtime.run('insert', { _id: 'dup' });
    expect(result.error?.message).toMatch(/^0 of 1 document inserted; .*duplicate key/);
  });
});
