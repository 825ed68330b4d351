import { createServer } from 'node:net';
import { Collection, MongoClient, type Db } from 'mongodb';
import { afterAll, beforeAll, vi, type MockInstance } from 'vitest';
import type { Runtime } from '../../../core/runtime.ts';
import { startYaml } from '../../../testing/load-yaml.ts';
import { parseConnectionString, formatConnectionString, decode } from '../connection-string.ts';

/**
 * The real server the docstore suites run against: any MongoDB wire-protocol server named by
 * DOCSTORE_TEST_URI (CI starts FerretDB with .ci/ferretdb.sh). Without it the server tests are
 * skipped, loudly; the tests that make no driver call still run.
 */
export const serverUri = process.env.DOCSTORE_TEST_URI || undefined;

if (!serverUri) {
  console.warn(
    [
      '',
      '==================================================================================',
      ' DOCSTORE SERVER TESTS SKIPPED: DOCSTORE_TEST_URI is not set.',
      ' Run them against FerretDB:  export DOCSTORE_TEST_URI="$(bash .ci/ferretdb.sh start)"',
      ' or against any MongoDB:     export DOCSTORE_TEST_URI=mongodb://user:pass@127.0.0.1:27017/',
      '==================================================================================',
      '',
    ].join('\n'),
  );
}

/** The test server's URI split as a user would configure it: user in the uri, password apart. */
export function serverCredentials(): { uri: string; user: string | undefined; password: string | undefined } {
  const cs = parseConnectionString(serverUri ?? 'mongodb://127.0.0.1:1/');
  return {
    uri: formatConnectionString({ ...cs, password: undefined }),
    user: cs.user === undefined ? undefined : decode(cs.user),
    password: cs.password === undefined ? undefined : decode(cs.password),
  };
}

/** A database name of its own for each suite, so suites running side by side never meet. */
export function suiteDatabase(suite: string): string {
  return `flowtest_${suite}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
}

/**
 * YAML declaring a docstore connector `store` on the test server with the password as a secret
 * variable (bind it with `serverEnv()`), plus the given flows.
 */
export function serverYaml(database: string, flows: string, connectorExtra = ''): string {
  const { uri, password } = serverCredentials();
  return `env:
  DOCSTORE_PASSWORD: {secret: true}
connectors:
  store:
    type: docstore
    uri: ${JSON.stringify(uri)}
${password === undefined ? '' : "    password: '${DOCSTORE_PASSWORD}'\n"}    database: ${database}
    timeout: 5s
${connectorExtra}flows:
${flows}`;
}

export function serverEnv(): Record<string, string> {
  const { password } = serverCredentials();
  return password === undefined ? {} : { DOCSTORE_PASSWORD: password };
}

/** A loopback port with nothing listening: connecting to it is refused at once. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const OPERATIONS = ['find', 'findOne', 'aggregate', 'insertOne', 'insertMany', 'updateOne', 'updateMany', 'replaceOne', 'deleteOne', 'deleteMany'] as const;

/** Spies on every collection operation the blocks use; `count()` is how many calls reached the driver. */
export function watchDriverCalls(): { count(): number; restore(): void } {
  const spies: MockInstance[] = OPERATIONS.map((name) => vi.spyOn(Collection.prototype, name));
  return {
    count: () => spies.reduce((n, s) => n + s.mock.calls.length, 0),
    restore: () => spies.forEach((s) => s.mockRestore()),
  };
}

export interface ServerSuite {
  runtime: Runtime;
  /** The suite's database through a client of its own, to seed and inspect. */
  db: Db;
  database: string;
}

/**
 * Starts the flows against the test server before the suite's tests and drops the suite's
 * database after them. Call it inside `describe.skipIf(!serverUri)`.
 */
export function serverSuite(name: string, flows: string, connectorExtra = ''): ServerSuite {
  const suite = { database: suiteDatabase(name) } as ServerSuite;
  let client: MongoClient | undefined;
  beforeAll(async () => {
    client = new MongoClient(serverUri!, { serverSelectionTimeoutMS: 5000 });
    suite.db = client.db(suite.database);
    suite.runtime = (await startYaml(serverYaml(suite.database, flows, connectorExtra), serverEnv())).runtime;
  });
  afterAll(async () => {
    await suite.runtime?.stop();
    await suite.db?.dropDatabase().catch(() => {});
    await client?.close();
  });
  return suite;
}
