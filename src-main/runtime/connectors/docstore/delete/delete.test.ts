import { beforeEach, describe, expect, it } from 'vitest';
import { serverSuite, serverUri } from '../testing/docstore-test-server.ts';

describe.skipIf(!serverUri)('docstore-delete against a real server', () => {
  const suite = serverSuite(
    'delete',
    `  delete-one:
    steps:
      - docstore-delete: {connector: store, collection: '"notes"', filter: body}
  delete-many:
    steps:
      - docstore-delete: {connector: store, collection: '"notes"', filter: body, many: true, resultVar: deleted}
  delete-all:
    steps:
      - docstore-delete: {connector: store, collection: '"notes"', filter: '{}', many: true, deleteAll: true}
`,
  );
  const count = () => suite.db.collection('notes').countDocuments();

  beforeEach(async () => {
    await suite.db.collection('notes').deleteMany({});
    await suite.db.collection('notes').insertMany([{ tag: 'x' }, { tag: 'x' }, { tag: 'y' }, { tag: 'z' }]);
  });

  it('deletes the first match', async () => {
    expect((await suite.runtime.run('delete-one', { tag: 'x' })).message.body).toEqual({ deletedCount: 1 });
    expect(await count()).toBe(3);
  });

  it('does not guard a single delete with an empty filter', async () => {
    expect((await suite.runtime.run('delete-one', {})).message.body).toEqual({ deletedCount: 1 });
  });

  it('deletes every match with many, into resultVar', async () => {
    const result = await suite.runtime.run('delete-many', { tag: 'x' });
    expect(result.message.vars.deleted).toEqual({ deletedCount: 2 });
    expect(await count()).toBe(2);
  });

  it('empties the collection only with deleteAll', async () => {
    const refused = await suite.runtime.run('delete-many', {});
    expect(refused.error?.message).toMatch(/^docstore-delete refused: the filter is empty and many is true/);
    expect(await count()).toBe(4);
    expect((await suite.runtime.run('delete-all')).message.body).toEqual({ deletedCount: 4 });
    expect(await count()).toBe(0);
  });
});
