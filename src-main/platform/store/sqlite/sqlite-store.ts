import { systemClock, type Clock } from '../../../../shared/clock.ts';
import type { ManagementStore, PlatformStore, StoreSettings } from '../platform-store.ts';
import type { SecretCipher } from '../secret-cipher.ts';
import type { TelemetryStore } from '../telemetry-store.ts';
import { SqliteAgentMemory } from './sqlite-agent-memory.ts';
import { SqliteSecretNames } from './sqlite-cluster-secrets.ts';
import { openDatabase, type Db } from './sqlite-database.ts';
import { SqliteDeployments } from './sqlite-deployments.ts';
import { SqliteInspection } from './sqlite-inspection.ts';
import { SqliteIntegrations } from './sqlite-integrations.ts';
import { SqliteKv } from './sqlite-kv.ts';
import { SqliteLeases } from './sqlite-leases.ts';
import { ObjectVersions } from './sqlite-object-versions.ts';
import { SqliteQueues } from './sqlite-queues.ts';
import { SqliteResources } from './sqlite-resources.ts';
import { SqliteSnapshots } from './sqlite-snapshots.ts';
import { SqliteTelemetry } from './sqlite-telemetry.ts';
import { SqliteTopics } from './sqlite-topics.ts';
import { moveTelemetryOut, openTelemetryDatabase } from './telemetry-database.ts';
import { OffThreadTelemetry, OnDemandWriter } from './telemetry-writer.ts';
import { FALLBACK_AUTOCHECKPOINT_PAGES, startWalCheckpointer } from './wal-checkpointer.ts';

/** The embedded store: SQLite files in the data directory (platform.db; traces and logs in telemetry.db), one process. */
export interface SqliteStore extends PlatformStore {
  readonly kind: 'sqlite';
  readonly db: Db;
  /** Traces and logs, apart from the platform's state: see openTelemetryDatabase. */
  readonly telemetryDb: Db;
  readonly management: ManagementStore;
}

/** `clock` decides lease TTLs, ack deadlines, nack delays, subscription expiry and retention (tests move it). */
export function openSqliteStore(
  dataDir: string,
  settings: StoreSettings,
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
  const { retention } = settings;
  // Batches are stored from a worker (on one core too: see TelemetryWriter) once they come at a
  // rate worth its thread (OnDemandWriter); this connection reads pages.
  const writer = new OnDemandWriter({ file: telemetryDb.name, retention }, clock);
  const telemetry = (kind: 'traces' | 'logs'): TelemetryStore => {
    const local = new SqliteTelemetry(telemetryDb, kind === 'traces' ? 'trace_batches' : 'log_batches', retention[kind], clock);
    return new OffThreadTelemetry(kind, local, writer, clock);
  };
  const closeAll = (): void => {
    telemetryDb.close();
    db.close();
  };
  try {
    const versions = new ObjectVersions(db);
    const integrations = new SqliteIntegrations(db);
    const queues = new SqliteQueues(db, clock);
    return {
      kind: 'sqlite',
      db,
      telemetryDb,
      kv: new SqliteKv(db, versions, cipher, clock),
      resources: new SqliteResources(db, clock),
      leases: new SqliteLeases(db, clock),
      queues,
      topics: new SqliteTopics(db, settings.subscriptionIdleMs, clock),
      agentMemory: new SqliteAgentMemory(db, versions, clock),
      traces: telemetry('traces'),
      logs: telemetry('logs'),
      management: { integrations, snapshots: new SqliteSnapshots(db, integrations), secretNames: new SqliteSecretNames(db), deployments: new SqliteDeployments(db) },
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
