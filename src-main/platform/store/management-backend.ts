import type { SecretInfo } from '../management/cluster-secret-store.ts';
import type { Binding, Deployment } from '../management/deployment-store.ts';
import type { IntegrationStore } from '../management/integration-store.ts';
import type { SecretValues } from '../management/secret-values.ts';
import type { SnapshotStore } from '../management/snapshot-store.ts';
import type { AsyncMethods, Awaitable } from './platform-store.ts';

/**
 * The management side of the store seam (spec 2 §2.11, §3.2, §4.2–4.4): integrations with their
 * working copy, version tags with their frozen copies, cluster secret names and deployments.
 * SQLite keeps them in the data directory's file (management/*-store.ts); PostgreSQL in the shared
 * database (store/postgres/postgres-management-*.ts), so every replica sees every write. Each
 * write that must be atomic (a bundle replacing the working copy, a tag freezing it) is one call,
 * done in one transaction by either store.
 */
export interface ManagementBackend {
  readonly integrations: IntegrationBackend;
  readonly snapshots: SnapshotBackend;
  readonly secretNames: SecretNameBackend;
  readonly deployments: DeploymentBackend;
  /**
   * Where cluster secret values live when the store keeps them itself (PostgreSQL: sealed with
   * the platform's secret key, shared by the replicas). Absent: the sealed `flow-secrets` file
   * in the data directory. A Kubernetes backend, when configured, wins over both.
   */
  readonly secretValues?: SecretValues;
}

export type IntegrationBackend = AsyncMethods<
  Pick<
    IntegrationStore,
    | 'list'
    | 'get'
    | 'require'
    | 'ensure'
    | 'listResources'
    | 'getResource'
    | 'createResource'
    | 'updateResource'
    | 'deleteResource'
    | 'listDefinitions'
    | 'getDefinition'
    | 'putDefinition'
    | 'deleteDefinition'
    | 'files'
    | 'replace'
  >
>;

export type SnapshotBackend = AsyncMethods<Pick<SnapshotStore, 'createTag' | 'listTags' | 'getTag' | 'get' | 'definitions' | 'resourceContent'>>;

/** Names and timestamps of cluster secrets (never their values). */
export interface SecretNameBackend {
  list(): Awaitable<SecretInfo[]>;
  get(name: string): Awaitable<SecretInfo | undefined>;
  /** Creates or touches the name; true when created. */
  record(name: string, actor: string): Awaitable<boolean>;
  /** False when there was no such name. */
  remove(name: string): Awaitable<boolean>;
}

/** Deployment records; the rules a deploy is checked against live in management/deployments.ts. */
export interface DeploymentBackend {
  list(): Awaitable<Deployment[]>;
  get(id: string): Awaitable<Deployment>;
  /** Stores (or replaces) the deployment and its bindings in one transaction; true when it is new. */
  save(id: string, record: { integration: string; tag: string; snapshotId: string; bindings: Record<string, Binding> }, actor: string): Awaitable<boolean>;
  delete(id: string): Awaitable<void>;
  /** Deployments that bind the secret, with the variable each binds it to. */
  usersOfSecret(name: string): Awaitable<Array<{ deployment: string; variable: string }>>;
}
