import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Binding, StudioRunUse } from '../../../shared/resource-types.ts';
import { StudioError } from '../studio-error.ts';

export const RUN_BINDINGS_FILE = 'studio-run-bindings.json';

const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Bindings of the studio's own runs of a working copy, per integration: what a deployment's
 * bindings are to a tag. Kept in the data directory as JSON; a secret binding stores the
 * secret's name, never its value (the value is read from the secret store when a run starts).
 */
export class RunBindings {
  private readonly path: string;
  private all: Record<string, Record<string, Binding>>;

  constructor(dataDir: string) {
    this.path = join(dataDir, RUN_BINDINGS_FILE);
    this.all = read(this.path);
  }

  of(integration: string): Record<string, Binding> {
    return { ...(this.all[integration] ?? {}) };
  }

  /** The integrations and variables bound to this secret, by integration then variable. */
  usersOfSecret(secret: string): StudioRunUse[] {
    const uses: StudioRunUse[] = [];
    for (const integration of Object.keys(this.all).sort()) {
      for (const [variable, b] of Object.entries(this.all[integration])) if ('secret' in b && b.secret === secret) uses.push({ integration, variable });
    }
    return uses.sort((a, b) => a.integration.localeCompare(b.integration) || a.variable.localeCompare(b.variable));
  }

  set(integration: string, variable: string, binding: Binding | null): Record<string, Binding> {
    if (!VARIABLE.test(variable)) throw new StudioError(`"${variable.slice(0, 60)}" is not a variable name: letters, digits and _, not starting with a digit`);
    const next = { ...(this.all[integration] ?? {}) };
    if (binding === null) delete next[variable];
    else next[variable] = checkBinding(binding, variable);
    this.all = { ...this.all, [integration]: next };
    if (Object.keys(next).length === 0) delete this.all[integration];
    const tmp = `${this.path}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.all, null, 2) + '\n', { mode: 0o600 });
    renameSync(tmp, this.path);
    return { ...next };
  }
}

export function checkBinding(binding: unknown, variable: string): Binding {
  const b = binding as Record<string, unknown> | null;
  if (b && typeof b === 'object' && typeof b.secret === 'string' && b.secret !== '' && !('value' in b)) return { secret: b.secret };
  if (b && typeof b === 'object' && typeof b.value === 'string' && !('secret' in b)) return { value: b.value };
  throw new StudioError(`the binding of ${variable} is {"value": "…"} or {"secret": "<secret name>"}`);
}

function read(path: string): Record<string, Record<string, Binding>> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return {};
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, Record<string, Binding>>) : {};
  } catch {
    // A damaged file loses the run bindings, not the studio: they are quick to set again.
    return {};
  }
}
