/**
 * The platform server's public surface: start it, read what it stores, follow what it does.
 * Everything else in src-main/platform/ is internal.
 */
export { startPlatformServer, type PlatformServer, type PlatformServerOptions, type TelemetryReader } from './server.ts';
export { PlatformEventFeed, type PlatformEvent, type PlatformEventListener, type LeaseKind } from './events.ts';
export { defaultFeatures, loadFeaturesFile, resolveFeatures, type FeatureName, type FeatureOverrides, type Features } from './features.ts';
export { SPEC_VERSION } from './delegation/discovery.ts';
export { seedResourcesFromDir } from './management/seed-resources.ts';
export type { ResourceKind, ResourceStore } from './store/resource-store.ts';
export type { TelemetryRecord } from './store/telemetry-store.ts';
