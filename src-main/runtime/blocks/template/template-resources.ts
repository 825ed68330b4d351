import type { RuntimeHost } from '../../core/runtime-host.ts';
import { compileTemplate, type CompiledTemplate } from './template-text.ts';

/**
 * Template resources of one generation (one loaded definition): each is read from the platform
 * once (spec 1 §4.1, no watch) and compiled once; a reload starts a new generation.
 */
const generations = new WeakMap<RuntimeHost, Map<string, CompiledTemplate | Promise<CompiledTemplate>>>();

/** The compiled template, synchronously when already read, else a promise of it. */
export function templateOf(host: RuntimeHost, name: string): CompiledTemplate | Promise<CompiledTemplate> {
  let cache = generations.get(host);
  if (!cache) generations.set(host, (cache = new Map()));
  const hit = cache.get(name);
  if (hit) return hit;
  const loading = host.services.resources.read('template', name).then(
    (text) => {
      if (text === undefined) throw new Error(`template resource "${name}" does not exist; add it to the integration's resources`);
      const compiled = compileTemplate(name, text);
      cache.set(name, compiled);
      return compiled;
    },
    (err: unknown) => {
      // Not kept: the next message tries again (the platform may have been briefly away).
      cache.delete(name);
      throw err;
    },
  );
  cache.set(name, loading);
  return loading;
}
