import type { SourceLocation } from '../errors.ts';

/** A variable the definition declares under `env:`; settings reference it as `${NAME}`. */
export interface DeclaredEnv {
  name: string;
  required: boolean;
  default?: string;
  secret: boolean;
  description?: string;
  location: SourceLocation;
}

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

export function referencedNames(text: string): string[] {
  return [...text.matchAll(REFERENCE)].map((m) => m[1]);
}

/** Substitutes `${NAME}`; returns undefined when a referenced value is not known (validate mode). */
export function interpolate(text: string, lookup: (name: string) => string | undefined): string | undefined {
  let missing = false;
  const out = text.replace(REFERENCE, (_, name: string) => {
    const v = lookup(name);
    if (v === undefined) missing = true;
    return v ?? '';
  });
  return missing ? undefined : out;
}
