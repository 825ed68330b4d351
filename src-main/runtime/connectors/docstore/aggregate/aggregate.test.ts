import { beforeAll, describe, expect, it } from 'vitest';
import { serverSuite, serverUri } from '../testing/docstore-test-server.ts';

describe.skipIf(!serverUri)('docstore-aggregate against a real server', () => {
  const suite = serverSuite(
    'aggregate',
    `  totals:
    steps:
      - docstore-aggregate:
          connector: store
          collection: '"orders"'
          pipeline: '[{"$group": {"_id": "$customer", "total": {"$sum": "$total"}}}, {"$sort": [{"total": -1}, {"_id": 1}]}]'
  limited:
    steps:
      - docstore-aggregate:
          connector: store
          collection: '"orders"'
          pipeline: 'body'
          limit: 2
          resultVar: rows
  any:
    steps:
      - docstore-aggregate: {connector: store, collection: '"orders"', pipeline: body}
`,
  );

  beforeAll(async () => {
    await suite.db.collection('orders').insertMany([
      { customer: 'ann', total: 5 },
      { customer: 'bob', total: 7 },
      { customer: 'cid', total: 3 },
      { customer: 'ann', total: 2 },
      { customer: 'dee', total: 3 },
    ]);
  });

  it('groups and sorts by several keys in list order', async () => {
    const result = await suite.runtime.run('totals');
    expect(result.error).toBeUndefined();
    expect(result.message.body).toEqual([
      { _id: 'ann', total: 7 },
      { _id: 'bob', total: 7 },
      { _id: 'cid', total: 3 },
      { _id: 'dee', total: 3 },
    ]);
  });

  it('caps the result with limit, and the smaller of limit and the pipeline’s own $limit wins', async () => {
    const pipeline = [{ $sort: { total: 1 } }, { $project: { _id: 0, total: 1 } }];
    expect((await suite.runtime.run('limited', pipeline)).message.vars.rows).toEqual([{ total: 2 }, { total: 3 }]);
    expect((await suite.runtime.run('limited', [...pipeline, { $limit: 1 }])).message.vars.rows).toEqual([{ total: 2 }]);
    expect((await suite.runtime.run('limited', [...pipeline, { $limit: 4 }])).message.vars.rows).toHaveLength(2);
  });

  it('returns an empty list when nothing comes out', async () => {
    expect((await suite.runtime.run('any', [{ $match: { customer: 'nobody' } }])).message.body).toEqual([]);
  });

  it('passes $facet with a nested $sort to the server untouched (server-limited on FerretDB v1)', async () => {
    const result = await suite.runtime.run('any', [{ $facet: { top: [{ $sort: { total: -1, customer: 1 } }, { $limit: 1 }] } }]);
    if (result.outcome === 'failed') {
      // FerretDB v1's exact answer; MongoDB runs the facet.
      expect(result.error?.message).toMatch(/failed: `aggregate` stage "\$facet" is not implemented yet$/);
      return;
    }
    expect(result.message.body).toEqual([{ top: [expect.objectContaining({ customer: 'bob', total: 7 })] }]);
  });
});
