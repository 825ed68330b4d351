import { isMap, isScalar, LineCounter, parseDocument, type Node } from 'yaml';
import { parseEnvFile } from '../../../shared/env-file.ts';
import { badRequest } from '../http/api-error.ts';
import type { IntegrationFiles } from './integration-store.ts';

/** A variable a definition declares under `env:`, as the deploy dialog shows it (spec 2 §9). */
export interface DeclaredVariable {
  name: string;
  description?: string;
  required: boolean;
  secret: boolean;
  default?: string;
  /** The definition file that declares it. */
  declaredIn: string;
  /** Frozen env resources that give it a non-empty value, in declared order. */
  satisfiedBy: string[];
}

/**
 * Reads the `env:` declarations of the definitions and marks which variables the env resources
 * satisfy. The platform does not validate flows (the runtime does); it reads just enough YAML to
 * bind variables at deploy time. A file that is not YAML, or an env resource that is not a .env
 * file, is refused with the place it breaks: such a tag could never start.
 */
export function declaredVariables(files: IntegrationFiles): DeclaredVariable[] {
  const setBy = new Map<string, string[]>();
  for (const r of files.resources) {
    if (r.kind !== 'env') continue;
    const parsed = parseEnvFile(r.content.toString('utf8'));
    const problem = parsed.problems[0];
    if (problem) throw badRequest('invalid_env_resource', `env resource "${r.name}" line ${problem.line}: ${problem.message}`);
    for (const e of parsed.entries) {
      if (e.value === '') continue;
      const list = setBy.get(e.name) ?? [];
      if (!list.includes(r.name)) list.push(r.name);
      setBy.set(e.name, list);
    }
  }
  const out: DeclaredVariable[] = [];
  for (const d of files.definitions) {
    const lines = new LineCounter();
    const doc = parseDocument(d.content.toString('utf8'), { lineCounter: lines });
    const error = doc.errors[0];
    if (error) {
      const at = error.linePos?.[0];
      throw badRequest('invalid_definition', `${d.file}${at ? `:${at.line}:${at.col}` : ''}: not valid YAML (${error.code}); fix it before tagging`);
    }
    const env = isMap(doc.contents) ? (doc.contents.get('env', true) as Node | undefined) : undefined;
    if (!isMap(env)) continue;
    for (const pair of env.items) {
      const name = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      const decl = isMap(pair.value) ? pair.value : undefined;
      const field = (key: string): unknown => {
        const v = decl?.get(key, true) as Node | undefined;
        return isScalar(v) ? v.value : undefined;
      };
      const description = field('description');
      const fallback = field('default');
      out.push({
        name,
        ...(typeof description === 'string' ? { description } : {}),
        required: field('required') === true,
        secret: field('secret') === true,
        ...(fallback !== undefined && fallback !== null ? { default: String(fallback) } : {}),
        declaredIn: d.file,
        satisfiedBy: setBy.get(name) ?? [],
      });
    }
  }
  return out;
}
