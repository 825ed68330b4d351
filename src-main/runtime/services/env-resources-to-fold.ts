import { envResourceNames, type Env } from './env-resources.ts';
import type { ResourceStore } from './platform-services.ts';

/**
 * Which env resources a runtime folds into its environment, in order (spec 2 §4.2, §4.4):
 *
 * 1. those named in `FLOW_ENV_RESOURCES`, when it is set;
 * 2. else, with `FLOW_SNAPSHOT_ID`, the snapshot's frozen env resources in their declared order,
 *    read from the platform: a pod carries only the snapshot id;
 * 3. else what the caller falls back to (`run` with its embedded platform: the integration's
 *    `env/` files), or none.
 */
export async function envResourcesToFold(env: Env, resources: ResourceStore, fallback: () => string[] = () => []): Promise<string[]> {
  const listed = envResourceNames(env);
  if (listed.length > 0) return listed;
  if (env.FLOW_SNAPSHOT_ID) {
    const frozen = await resources.snapshotEnvResources?.();
    if (frozen !== undefined) return frozen;
  }
  return fallback();
}
