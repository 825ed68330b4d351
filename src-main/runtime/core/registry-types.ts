import type { AnyBlockImpl, AnyConnectorImpl, AnySourceImpl } from './component.ts';
import type { CelFunction } from './cel.ts';
import type { RuntimeHost } from './runtime-host.ts';

/** A CEL function whose behaviour needs the running host (resources, secrets, …). */
export interface CelFunctionDef {
  signature: string;
  description: string;
  create(host: RuntimeHost): CelFunction['handler'];
  /**
   * Reads ahead, before sources start, what the function's calls with a literal first argument
   * need (`secret("api-token")` gives `[["api-token"]]`), so those calls answer synchronously
   * from the first message on. Reporting failures (a missing secret) is the function's business.
   */
  prefetch?(host: RuntimeHost, calls: string[][]): Promise<void>;
}

/** Every component the loader can build, by type. */
export interface ComponentRegistry {
  blocks: ReadonlyMap<string, AnyBlockImpl>;
  connectors: ReadonlyMap<string, AnyConnectorImpl>;
  sources: ReadonlyMap<string, AnySourceImpl>;
  celFunctions: readonly CelFunctionDef[];
}

type AnyImpl = { def: { type: string } };

export function byType<T extends AnyImpl>(impls: readonly T[]): ReadonlyMap<string, T> {
  const map = new Map<string, T>();
  for (const impl of impls) {
    if (map.has(impl.def.type)) throw new Error(`two components registered as "${impl.def.type}"`);
    map.set(impl.def.type, impl);
  }
  return map;
}
