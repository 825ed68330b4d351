import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { parseEnvFile } from '../../../shared/env-file.ts';
import type { ResourceKind, ResourceStore } from './platform-services.ts';

export type Env = Record<string, string | undefined>;

/**
 * `FLOW_ENV_RESOURCES`: the env resources a runtime folds into its environment, in declared
 * order, as a JSON array (`["base.env", "config/prod.env"]`) or comma-separated names. Whoever
 * starts the runtime sets it: a local deployment from its tag's frozen env resources, `run`
 * from the integration's `env/` folder.
 */
export function envResourceNames(env: Env): string[] {
  const raw = env.FLOW_ENV_RESOURCES?.trim();
  if (!raw) return [];
  if (raw.startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw new Error('FLOW_ENV_RESOURCES starts with "[" but is not a JSON array; write ["base.env", "prod.env"] or base.env,prod.env');
    }
    if (!Array.isArray(parsed) || parsed.some((n) => typeof n !== 'string' || n === '')) {
      throw new Error('FLOW_ENV_RESOURCES must be an array of env resource names, e.g. ["base.env", "config/prod.env"]');
    }
    return parsed as string[];
  }
  return raw
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
}

/**
 * The environment a definition loads with, by the precedence of spec 2 §4.4:
 *
 * 1. the container environment (literal bindings, secret references, managed variables) wins;
 * 2. then the env resources, read once at start in declared order, a later file overriding an
 *    earlier one;
 * 3. the declared defaults, which the definition loader applies beneath whatever this returns.
 *
 * An empty value injects nothing at either level, so what lies beneath still applies. A listed
 * resource that is missing or not a .env file fails the start, naming it (never a value).
 */
export async function foldEnvResources(env: Env, resources: ResourceStore, names: readonly string[] = envResourceNames(env)): Promise<Env> {
  const fromResources: Record<string, string> = {};
  for (const name of names) {
    const text = await resources.read('env', name);
    if (text === undefined) throw new Error(`env resource "${name}" (listed in FLOW_ENV_RESOURCES) does not exist on the platform; add it to the integration or remove it from the list`);
    const parsed = parseEnvFile(text);
    const problem = parsed.problems[0];
    if (problem) throw new Error(`env resource "${name}" line ${problem.line}: ${problem.message}`);
    for (const entry of parsed.entries) if (entry.value !== '') fromResources[entry.name] = entry.value;
  }
  const folded: Env = { ...fromResources };
  for (const [name, value] of Object.entries(env)) if (value !== undefined && value !== '') folded[name] = value;
  return folded;
}

/**
 * The env resources of an integration folder, `<dir>/env/**`, by name in path order: the
 * declared order of a folder, as `run` seeds them into its embedded platform.
 */
export function envFilesIn(integrationDir: string): string[] {
  return resourceFilesIn(integrationDir, 'env');
}

/**
 * The resources of one kind an integration folder holds, `<dir>/<kind>/**`, by name (the path
 * below the kind folder, `/`-separated) in path order; none when the folder has no such folder.
 */
export function resourceFilesIn(integrationDir: string, kind: ResourceKind): string[] {
  const root = join(integrationDir, kind);
  try {
    return readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join('/'))
      .sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}
