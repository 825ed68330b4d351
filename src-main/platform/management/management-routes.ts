import type { Features } from '../features.ts';
import type { Route } from '../http/router.ts';
import { deploymentRoutes } from './deployment-routes.ts';
import { integrationRoutes } from './integration-routes.ts';
import type { Management } from './management.ts';
import { resourceManagementRoutes } from './resource-routes.ts';
import { secretRoutes } from './secret-routes.ts';
import { tagRoutes } from './tag-routes.ts';

/**
 * The platform endpoints of spec 2 §4.2 and what they need around them (integrations,
 * definitions, bundles, tags, deployments), beside /v1 on the same server and behind the same
 * bearer token.
 */
export function managementRoutes(m: Management, features: Features): Route[] {
  return [...integrationRoutes(m), ...resourceManagementRoutes(m), ...tagRoutes(m, features), ...secretRoutes(m), ...deploymentRoutes(m)];
}
