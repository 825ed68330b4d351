import type { CelFunctionDef } from '../registry-types.ts';
import type { RuntimeHost } from '../runtime-host.ts';

/**
 * Collects, while a definition compiles, the calls to prefetching CEL functions whose first
 * argument is a string literal (`secret("api-token")`), and warms them before sources start.
 * Those calls then answer synchronously, so every block can use them without awaiting.
 */
export class CelPrefetch {
  private readonly calls = new Map<CelFunctionDef, Map<string, string[]>>();
  private readonly byName: Array<[string, CelFunctionDef]>;

  constructor(functions: readonly CelFunctionDef[]) {
    this.byName = functions.filter((f) => f.prefetch).map((f) => [f.signature.split('(')[0].trim(), f]);
  }

  record(source: string): void {
    for (const [name, def] of this.byName) {
      if (!source.includes(name)) continue;
      for (const args of literalCalls(source, name)) {
        let seen = this.calls.get(def);
        if (!seen) this.calls.set(def, (seen = new Map()));
        seen.set(JSON.stringify(args), args);
      }
    }
  }

  async run(host: RuntimeHost): Promise<void> {
    await Promise.all([...this.calls].map(([def, calls]) => def.prefetch!(host, [...calls.values()])));
  }
}

const STRING = String.raw`"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'`;

/** The literal first arguments of `name("…", …)` calls; calls whose first argument is computed are skipped. */
export function literalCalls(source: string, name: string): string[][] {
  const call = new RegExp(String.raw`(?<![\w.])${name}\s*\(\s*(${STRING})\s*[,)]`, 'g');
  return [...source.matchAll(call)].map((m) => [unquote(m[1])]);
}

function unquote(literal: string): string {
  const body = literal.slice(1, -1);
  return body.replace(/\\(.)/g, (_, c: string) => ({ n: '\n', t: '\t', r: '\r' })[c] ?? c);
}
