import { Decimal128, Double, Int32, Long, MongoClient, ObjectId, type Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../../core/runtime.ts';
import { startYaml } from '../../testing/load-yaml.ts';
import { serverCredentials, serverEnv, serverUri, suiteDatabase } from './testing/docstore-test-server.ts';

/** The same document, as a canonical connector writes and reads it. */
const canonical = {
  _id: { $oid: '65f1a2b3c4d5e6f708192a3b' },
  at: { $date: { $numberLong: '1741944413589' } },
  bigId: { $numberLong: '9007199254740993' },
  count: { $numberLong: '5' },
  qty: { $numberInt: '7' },
  ratio: { $numberDouble: '0.25' },
};

describe.skipIf(!serverUri)('extended JSON through a real server', () => {
  const database = suiteDatabase('repr');
  let runtime: Runtime;
  let client: MongoClient;
  let db: Db;

  beforeAll(async () => {
    const { uri, password } = serverCredentials();
    const auth = password === undefined ? '' : "password: '${DOCSTORE_PASSWORD}', ";
    const flows = (connector: string) => `
  ${connector}-insert:
    steps:
      - docstore-insert: {connector: ${connector}, collection: '"typed"', document: body}
  ${connector}-find:
    steps:
      - docstore-find: {connector: ${connector}, collection: '"typed"', filter: body, single: true}`;
    ({ runtime } = await startYaml(
      `env:
  DOCSTORE_PASSWORD: {secret: true}
connectors:
  exact: {type: docstore, uri: ${JSON.stringify(uri)}, ${auth}database: ${database}, extendedJson: canonical}
  plain: {type: docstore, uri: ${JSON.stringify(uri)}, ${auth}database: ${database}}
flows:${flows('exact')}${flows('plain')}
  cel-insert:
    steps:
      - docstore-insert: {connector: plain, collection: '"typed"', document: '{"_id": "cel", "big": 9007199254740993}'}
`,
      serverEnv(),
    ));
    client = new MongoClient(serverUri!, { serverSelectionTimeoutMS: 5000 });
    db = client.db(database);
  });
  afterAll(async () => {
    await runtime?.stop();
    await db?.dropDatabase().catch(() => {});
    await client?.close();
  });

  it('writes canonical input with every type kept, and reads it back identical', async () => {
    const inserted = await runtime.run('exact-insert', canonical);
    expect(inserted.error).toBeUndefined();
    const stored = await db.collection('typed').findOne({ _id: new ObjectId('65f1a2b3c4d5e6f708192a3b') }, { promoteValues: false });
    expect(stored).toEqual({
      _id: new ObjectId('65f1a2b3c4d5e6f708192a3b'),
      at: new Date(1741944413589),
      bigId: Long.fromString('9007199254740993'),
      count: Long.fromNumber(5),
      qty: new Int32(7),
      ratio: new Double(0.25),
    });
    const read = await runtime.run('exact-find', { _id: canonical._id });
    expect(read.message.body).toEqual(canonical);
  });

  it('reads relaxed, and the relaxed document works as a filter that finds it again', async () => {
    const relaxed = (await runtime.run('plain-find', { _id: canonical._id })).message.body;
    expect(relaxed).toEqual({
      _id: { $oid: '65f1a2b3c4d5e6f708192a3b' },
      at: { $date: '2025-03-14T09:26:53.589Z' },
      bigId: { $numberLong: '9007199254740993' },
      count: 5,
      qty: 7,
      ratio: 0.25,
    });
    const again = await runtime.run('plain-find', relaxed);
    expect(again.message.body).toEqual(relaxed);
  });

  it('round-trips Decimal128 in both modes (server-limited on FerretDB v1)', async () => {
    const money = { _id: 'money', price: { $numberDecimal: '19.99' } };
    const inserted = await runtime.run('exact-insert', money);
    if (inserted.outcome === 'failed') {
      // FerretDB v1 has no Decimal128 and drops the connection on one; MongoDB stores it.
      expect(inserted.error?.message).toMatch(/failed: connection \d+ to [\d.:]+ closed$/);
      return;
    }
    const stored = await db.collection('typed').findOne({ _id: 'money' as never });
    expect(stored?.price).toEqual(Decimal128.fromString('19.99'));
    expect((await runtime.run('exact-find', { _id: 'money' })).message.body).toEqual(money);
    expect((await runtime.run('plain-find', { _id: 'money' })).message.body).toEqual(money);
  });

  it('stores a CEL integer above 2^53 as an exact 64-bit integer', async () => {
    await runtime.run('cel-insert');
    const stored = await db.collection('typed').findOne({ _id: 'cel' as never }, { promoteValues: false });
    expect(stored?.big).toEqual(Long.fromString('9007199254740993'));
  });
});
