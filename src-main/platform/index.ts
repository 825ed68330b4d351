/**
 * The platform server's public surface: start it, read what it stores, follow what it does.
 * Everything else in src-main/platform/ is internal.
 */
export { mintToken } from './minted-token.ts';
export { startPlatformServer, type PlatformServer, type PlatformServerOptions, type TelemetryReader } from './server.ts';
export { PlatformEventFeed, type PlatformEvent, type PlatformEventListener, type LeaseKind, type SubscribeOptions } from './events.ts';
export { defaultFeatures, loadFeaturesFile, resolveFeatures, type FeatureName, type FeatureOverrides, type Features } from './features.ts';
export { SPEC_VERSION } from './delegation/discovery.ts';
export { seedResourcesFromDir } from './management/seed-resources.ts';
export { diskFullError, diskFullMessage, isDiskFull } from './store/disk-full.ts';
export { isPostgresUrl, redactStoreUrl } from './store/postgres/store-url.ts';
export type { ResourceKind, ResourceStore } from './store/resource-store.ts';
export type { TelemetryRecord } from './store/telemetry-store.ts';
export type { PlatformInspection } from './inspect/platform-inspection.ts';
export type { QueueGroupCounts, StoredQueueMessage, StoredQueueState } from './inspect/queue-inspection.ts';
export type { StoredTopicMessage, SubscriptionState, TopicStreamCounts } from './inspect/topic-inspection.ts';
export type { KvEntryRead, KvKeyRow, KvNamespaceCounts } from './inspect/kv-inspection.ts';
export type { StoredClaim } from './inspect/lease-inspection.ts';
export type { AgentCounts, UserMemory } from './inspect/agent-inspection.ts';
export { Management } from './management/management.ts';
export { keyFileProtection, sealedKeyProtection, type KeySealer, type SealedKeyOptions, type SecretKeyProtection } from './management/secret-key-protection.ts';
export { SecretCipher } from './store/secret-cipher.ts';
export { replaceFileAtomically } from './store/atomic-file.ts';
export {
  lockDataDir,
  DataDirInUseError,
  DATA_DIR_HOLDER_FILE,
  DATA_DIR_LOCK_FILE,
  type DataDirHolder,
  type DataDirLock,
  type DataDirShell,
  type LockDataDirOptions,
} from './data-dir-lock.ts';
export type { IntegrationInfo, ResourceInfo, ResourceRecord, DefinitionInfo, IntegrationFiles } from './store/integration-store.ts';
export type { DeclaredVariable, Snapshot } from './store/snapshot-store.ts';
export type { SecretInfo } from './store/cluster-secret-store.ts';
export type { Binding, Deployment } from './store/deployment-store.ts';
export type { ContainerEnv, DeployRequest } from './management/deployments.ts';
export { checkResourceName, checkSecretName } from './management/names.ts';
export { filesOfBundle } from './management/bundle.ts';
export { inClusterKubernetes, type KubernetesApiOptions } from './management/kubernetes-secret-object.ts';
export { runtimeDeploymentManifest, CLUSTER_SECRET_OBJECT, MANAGED_VARIABLES, type RuntimeManifestInput } from './management/runtime-manifest.ts';
export { platformApiArtifacts } from './openapi-artifact.ts';
