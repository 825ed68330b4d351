import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One runner for every suite: unit, contract, integration. Browser tests live in e2e/ and are
// driven by Playwright from e2e/*.test.ts so their results are counted here too.
const include = ['bin/**/*.test.ts', 'src-main/**/*.test.ts', 'shared/**/*.test.ts', 'src-renderer/**/*.test.ts', 'e2e/**/*.test.ts', 'bench/**/*.test.ts'];

// The platform's contract, concurrency, property, crash, management and inspection suites run once more on PostgreSQL
// and once more on two replicas sharing one PostgreSQL database, when a cluster is at hand
// (PLATFORM_TEST_POSTGRES_URL, set by `bash .ci/postgres.sh with-server …`). Without one,
// src-main/platform/store/postgres/postgres-store.test.ts reports them as skipped, saying why.
const platformSuites = [
  'src-main/platform/delegation/*.test.ts',
  'src-main/platform/platform-concurrency.test.ts',
  'src-main/platform/platform-model.test.ts',
  'src-main/platform/platform-crash.test.ts',
  'src-main/platform/server.test.ts',
  'src-main/platform/events.test.ts',
  // Management: integrations, resources, tags and snapshots, secrets, deployments. The key
  // protection and Kubernetes secret suites are about where the embedded store keeps its key and
  // values, and start their own SQLite servers.
  'src-main/platform/management/bundle.test.ts',
  'src-main/platform/management/managed-bindings.test.ts',
  'src-main/platform/management/resources.test.ts',
  'src-main/platform/management/secrets.test.ts',
  'src-main/platform/management/tags.test.ts',
  // The studio's platform views (queues, topics, KV, leases, agent memory) read either store.
  'src-main/platform/inspect/*.test.ts',
];
const onPostgres = process.env.PLATFORM_TEST_POSTGRES_URL
  ? (['postgres', 'postgres-replicas'] as const).map((store) => ({
      extends: true as const,
      test: { name: `platform on ${store}`, include: platformSuites, env: { PLATFORM_TEST_STORE: store } },
    }))
  : [];

// With projects, `include` is set per project only: a project that extends the root config
// would otherwise have the root's list concatenated with its own and run every suite.
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll waits for a condition: generous, so a loaded machine only makes it slower.
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks',
    // Vitest's default is one fork less than the cores: on a 2-core machine, one file at a time,
    // while most files spend their time waiting on servers and CLI processes they start. Two forks
    // keep both cores busy without queueing a third file behind them.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    reporters: ['default'],
    ...(onPostgres.length > 0 ? { projects: [{ extends: true, test: { name: 'default', include } }, ...onPostgres] } : { include }),
  },
});
