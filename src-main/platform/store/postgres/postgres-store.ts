import { randomUUID } from 'node:crypto';
import type { PlatformStore, StoreSettings } from '../platform-store.ts';
import type { SecretCipher } from '../secret-cipher.ts';
import { PostgresAgentMemory } from './postgres-agent-memory.ts';
import { PostgresSecretNames, PostgresSecretValues } from './postgres-cluster-secrets.ts';
import { createPool } from './postgres-connection.ts';
import { PostgresDeployments } from './postgres-deployments.ts';
import { PostgresInspection } from './postgres-inspection.ts';
import { PostgresIntegrations } from './postgres-integrations.ts';
import { PostgresKv } from './postgres-kv.ts';
import { PostgresLeases } from './postgres-leases.ts';
import { PostgresQueues } from './postgres-queues.ts';
import { PostgresResources } from './postgres-resources.ts';
import { PostgresSnapshots } from './postgres-snapshots.ts';
import { PostgresTelemetry } from './postgres-telemetry.ts';
import { PostgresTopics } from './postgres-topics.ts';
import { PostgresWakeups } from './postgres-wakeups.ts';
import { migrate } from './postgres-migrations.ts';
import { isPostgresUrl, redactStoreUrl } from './store-url.ts';

/**
 * The cluster store: every capability's state in one PostgreSQL database that any number of
 * platform replicas share (a replica keeps nothing but its long polls in memory). Connects,
 * migrates the schema (versioned, under an advisory lock) and starts the wake-up listener.
 */
export async function openPostgresStore(url: string, settings: StoreSettings, cipher: SecretCipher, onError: (err: Error) => void = () => {}): Promise<PlatformStore> {
  if (!isPostgresUrl(url)) throw new Error(`the platform store must be a postgres://… URL, got "${url.slice(0, 40)}"`);
  const pool = createPool(url);
  // Names this replica in the wake-ups it sends (its own listener skips them).
  const origin = randomUUID();
  let wakeups: PostgresWakeups | undefined;
  try {
    const client = await pool.connect().catch((err: Error) => {
      throw new Error(`cannot reach the platform's PostgreSQL store at ${redactStoreUrl(url)}: ${err.message}`);
    });
    try {
      await migrate(client);
    } finally {
      client.release();
    }
    wakeups = new PostgresWakeups(url, onError, origin);
    await wakeups.start();
  } catch (err) {
    await wakeups?.close();
    await pool.end().catch(() => {});
    throw err;
  }
  const listener = wakeups;
  const traces = new PostgresTelemetry(pool, 'trace_records', settings.retention.traces);
  const logs = new PostgresTelemetry(pool, 'log_records', settings.retention.logs);
  await traces.recount();
  await logs.recount();
  const integrations = new PostgresIntegrations(pool);
  const queues = new PostgresQueues(pool, origin);
  return {
    kind: 'postgres',
    kv: new PostgresKv(pool, cipher),
    resources: new PostgresResources(pool),
    leases: new PostgresLeases(pool),
    queues,
    topics: new PostgresTopics(pool, settings.subscriptionIdleMs),
    agentMemory: new PostgresAgentMemory(pool),
    traces,
    logs,
    management: {
      integrations,
      snapshots: new PostgresSnapshots(pool, integrations),
      secretNames: new PostgresSecretNames(pool),
      deployments: new PostgresDeployments(pool),
      secretValues: new PostgresSecretValues(pool, cipher),
    },
    inspection: new PostgresInspection(pool, queues),
    wakeups: listener,
    close: async () => {
      await listener.close();
      await pool.end();
    },
  };
}
