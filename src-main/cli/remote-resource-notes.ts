import { resolve } from 'node:path';
import { envResourceNames, resourceFilesIn, type PlatformServices } from '../runtime/index.ts';

type Env = Record<string, string | undefined>;

/**
 * What `run` on a platform of its own (FLOW_PLATFORM_API_URL) warns of at start about the resource
 * files beside an integration's definitions. With the embedded platform `run` loads
 * `<integration>/template/**` and `env/**` and folds the env files in; a platform of its own
 * holds only what it was given (`flow-studio platform --seed-resources <folder>`), so without
 * these notes a template step fails on every message and an env file is left out, and a worker
 * whose failures nobody answers says nothing at all.
 *
 * Each template and env file is looked up by the delegation API's own read
 * (GET /v1/resources/content, through the runtime's client), so the note names exactly what the
 * flows will miss. Nothing is said with FLOW_SNAPSHOT_ID: a deployed runtime reads its tag's
 * frozen resources, not the folder's.
 */
export async function remoteResourceNotes(integrationDir: string, platformUrl: string, resources: PlatformServices['resources'], env: Env): Promise<string[]> {
  if (env.FLOW_SNAPSHOT_ID) return [];
  const files = [
    ...resourceFilesIn(integrationDir, 'template').map((name) => ({ kind: 'template' as const, name })),
    ...resourceFilesIn(integrationDir, 'env').map((name) => ({ kind: 'env' as const, name })),
  ];
  if (files.length === 0) return [];
  const held = await Promise.all(files.map((f) => resources.read(f.kind, f.name).then((text) => text !== undefined)));
  const missing = files.filter((_, i) => !held[i]).map((f) => `${f.kind}/${f.name}`);
  const notes: string[] = [];
  if (missing.length > 0) {
    notes.push(
      `the platform at ${platformUrl} does not hold ${missing.length === 1 ? 'this resource' : 'these resources'} of ${integrationDir}: ${missing.join(', ')}, ` +
        `so steps that read ${missing.length === 1 ? 'it' : 'them'} will fail. Only run's embedded platform loads an integration's template/ and env/ files; ` +
        `restart this platform with --seed-resources ${resolve(integrationDir)} to load them (its store keeps them)`,
    );
  }
  const envFiles = files.filter((f) => f.kind === 'env').map((f) => f.name);
  if (envFiles.length > 0 && envResourceNames(env).length === 0) {
    notes.push(
      `the env files of ${integrationDir} (${envFiles.join(', ')}) are not folded into its environment: on a platform of its own, ` +
        `run folds in only the env resources named in FLOW_ENV_RESOURCES; to fold them in as the embedded platform does, set FLOW_ENV_RESOURCES=${envFiles.join(',')}`,
    );
  }
  return notes;
}
