import { discoveryRoutes } from './discovery.ts';
import { kvRoutes } from './kv.ts';
import { resourcesRoutes } from './resources.ts';
import { leasesRoutes } from './leases.ts';
import { leaderRoutes } from './leader.ts';
import { queuesRoutes } from './queues.ts';
import { topicsRoutes } from './topics.ts';
import { agentMemoryRoutes } from './agent-memory.ts';
import { telemetryRoutes } from './telemetry.ts';
import { integrationsRoutes } from './integrations.ts';
import { integrationResourcesRoutes } from './integration-resources.ts';
import { versionTagsRoutes } from './version-tags.ts';
import { secretsRoutes } from './secrets.ts';
import { deploymentsRoutes } from './deployments.ts';

/** Every route of the platform HTTP API, in the order of the OpenAPI document. */
export const platformRoutes = [
  ...discoveryRoutes,
  ...kvRoutes,
  ...resourcesRoutes,
  ...leasesRoutes,
  ...leaderRoutes,
  ...queuesRoutes,
  ...topicsRoutes,
  ...agentMemoryRoutes,
  ...telemetryRoutes,
  ...integrationsRoutes,
  ...integrationResourcesRoutes,
  ...versionTagsRoutes,
  ...secretsRoutes,
  ...deploymentsRoutes,
] as const;
