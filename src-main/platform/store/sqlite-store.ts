import { systemClock, type Clock } from '../../../shared/clock.ts';
import type { Features } from '../features.ts';
import { SqliteSecretNames } from '../management/cluster-secret-store.ts';
import { DeploymentStore } from '../management/deployment-store.ts';
import { IntegrationStore } from '../management/integration-store.ts';
import { SnapshotStore } from '../management/snapshot-store.ts';
import { AgentMemoryStore } from './agent-memory-store.ts';
import { openDatabase, type Db } from './database.ts';
import { KvStore } from './kv-store.ts';
import { LeaseStore } from './lease-store.ts';
import { ObjectVersions } from './object-versions.ts';
import type { PlatformStore, TelemetryBackend } from './platform-store.ts';
import { QueueStore } from './queue-store.ts';
import { ResourceStore } from './resource-store.ts';
import { SqliteInspection } from './sqlite-inspection.ts';
import type { SecretCipher } from './secret-cipher.ts';
import { moveTelemetryOut, openTelemetryDatabase } from './telemetry-database.ts';
import { TelemetryStore, type Retention } from './telemetry-store.ts';
import { OffThreadTelemetry, TelemetryWriter } from './telemetry-writer.ts';
import { TopicStore } from './topic-store.ts';
import { FALLBACK_AUTOCHECKPOINT_PAGES, startWalCheckpointer } from './wal-checkpointer.ts';

/** The embedded store: SQLite files in the data directory (platform.db; traces and logs in telemetry.db), one process. */
export interface SqliteStore extends PlatformStore {
  readonly kind: 'sqlite';
  readonly db: Db;
  /** Traces and logs, apart from the platform's state: see openTelemetryDatabase. */
  readonly telemetryDb: Db;
  readonly kv: KvStore;
  readonly resources: ResourceStore;
  readonly leases: LeaseStore;
  readonly queues: QueueStore;
  readonly topics: TopicStore;
  readonly agentMemory: AgentMemoryStore;
  readonly traces: TelemetryBackend;
  readonly logs: TelemetryBackend;
  readonly management: SqliteManagement;
}

export interface SqliteManagement {
  readonly integrations: IntegrationStore;
  readonly snapshots: SnapshotStore;
  readonly secretNames: SqliteSecretNames;
  readonly deployments: DeploymentStore;
}

/** `clock` decides lease TTLs, ack deadlines, nack delays, subscription expiry and retention (tests move it). */
export function openSqliteStore(
  dataDir: string,
  features: Features,
  cipher: SecretCipher,
  clock: Clock = systemClock,
  warn: (message: string) => void = (message) => process.stderr.write(`platform server: ${message}\n`),
): SqliteStore {
  const db = openDatabase(dataDir);
  let telemetryDb: Db;
  try {
    telemetryDb = openTelemetryDatabase(dataDir, warn);
    moveTelemetryOut(db, telemetryDb.name);
  } catch (err) {
    db.close();
    throw err;
  }
  // Checkpoints (and their fsyncs) happen on a worker's connection, off the request path.
  for (const d of [db, telemetryDb]) d.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
  const checkpointer = startWalCheckpointer([db.name, telemetryDb.name]);
  const retention: Record<'traces' | 'logs', Retention> = {
    traces: { records: features.traces.retainRecords, bytes: features.traces.retainBytes, seconds: features.traces.retainSeconds },
    logs: { records: features.logs.retainRecords, bytes: features.logs.retainBytes, seconds: features.logs.retainSeconds },
  };
  // Batches are stored from a worker where a second core exists; this connection reads pages.
  const writer = TelemetryWriter.startWhereItPays({ file: telemetryDb.name, retention });
  const telemetry = (kind: 'traces' | 'logs'): TelemetryBackend => {
    const local = new TelemetryStore(telemetryDb, kind === 'traces' ? 'trace_batches' : 'log_batches', retention[kind], clock);
    return writer ? new OffThreadTelemetry(kind, local, writer, clock) : local;
  };
  const closeAll = (): void => {
    telemetryDb.close();
    db.close();
  };
  try {
    const versions = new ObjectVersions(db);
    const integrations = new IntegrationStore(db);
    const queues = new QueueStore(db, clock);
    return {
      kind: 'sqlite',
      db,
      telemetryDb,
      kv: new KvStore(db, versions, cipher, clock),
      resources: new ResourceStore(db, clock),
      leases: new LeaseStore(db, clock),
      queues,
      topics: new TopicStore(db, features.topics.subscriptionIdleSeconds * 1000, clock),
      agentMemory: new AgentMemoryStore(db, versions, clock),
      traces: telemetry('traces'),
      logs: telemetry('logs'),
      management: { integrations, snapshots: new SnapshotStore(db, integrations), secretNames: new SqliteSecretNames(db), deployments: new DeploymentStore(db) },
      inspection: new SqliteInspection(db, queues, clock),
      close: async () => {
        await writer?.close(clock.now());
        await checkpointer.stop();
        closeAll();
      },
    };
  } catch (err) {
    void writer?.close(clock.now());
    void checkpointer.stop();
    closeAll();
    throw err;
  }
}
