import type { CelFunctionDef } from '../../core/registry-types.ts';
import type { RuntimeHost } from '../../core/runtime-host.ts';

/** A secret read is reused this long; after it the next call still answers at once and refreshes behind. */
const FRESH_MS = 60_000;

interface Cached {
  value: string;
  readAt: number;
  refreshing?: boolean;
}

/** One cache per loaded definition (host): a reload reads secrets again. */
const caches = new WeakMap<RuntimeHost, Map<string, Cached>>();

function cacheOf(host: RuntimeHost): Map<string, Cached> {
  let cache = caches.get(host);
  if (!cache) caches.set(host, (cache = new Map()));
  return cache;
}

async function read(host: RuntimeHost, name: string): Promise<string> {
  const value = await host.services.secrets.read(name);
  if (value === undefined) {
    cacheOf(host).delete(name);
    throw new Error(`secret "${name}" does not exist on the platform (namespace user_secrets); create it, or check the name`);
  }
  // Masked everywhere from now on: logs, traces, error messages.
  host.protectSecret(value);
  cacheOf(host).set(name, { value, readAt: Date.now() });
  return value;
}

/**
 * `secret("name")`: the value of a platform secret (the `user_secrets` KV namespace), for
 * settings that need a credential per call, e.g. a rest header. Calls with a literal name are
 * read before the flows start, so they answer synchronously; the value is then masked in logs,
 * traces and errors. Access fails, naming the flag, when the platform keeps no secrets.
 */
export const secretFunction: CelFunctionDef = {
  signature: 'secret(string): string',
  description: 'The value of the platform secret with this name (user_secrets); masked in logs and traces.',
  create(host) {
    const cache = cacheOf(host);
    return ((name: string): string | Promise<string> => {
      const hit = cache.get(name);
      if (!hit) return read(host, name);
      if (Date.now() - hit.readAt > FRESH_MS && !hit.refreshing) {
        // Rotation is picked up within a minute without ever making a caller wait.
        hit.refreshing = true;
        read(host, name).catch(() => (hit.refreshing = false));
      }
      return hit.value;
    }) as never;
  },
  async prefetch(host, calls) {
    // A secret that cannot be read now fails the step that uses it, with the reason then.
    await Promise.all(calls.map(([name]) => read(host, name).catch(() => undefined)));
  },
};
