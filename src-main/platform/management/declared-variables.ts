import { readEnvDeclarations } from '../../../shared/env-declarations.ts';
import { parseEnvFile } from '../../../shared/env-file.ts';
import { badRequest } from '../http/api-error.ts';
import type { IntegrationFiles } from '../store/integration-store.ts';
import type { DeclaredVariable } from '../store/snapshot-store.ts';

/**
 * Reads the `env:` declarations of the definitions (shared/env-declarations.ts, as the studio
 * does) and marks which variables the env resources satisfy. The platform does not validate flows
 * (the runtime does); it reads just enough YAML to bind variables at deploy time. A file that is not YAML, or an env resource that is not a .env
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
    const read = readEnvDeclarations(d.file, d.content.toString('utf8'));
    if ('yamlError' in read) {
      const { code, line, col } = read.yamlError;
      throw badRequest('invalid_definition', `${d.file}${line !== undefined ? `:${line}:${col}` : ''}: not valid YAML (${code}); fix it before tagging`);
    }
    // The line is the studio's; a tag records what the deploy dialog shows.
    for (const { line: _line, ...variable } of read.variables) out.push({ ...variable, satisfiedBy: setBy.get(variable.name) ?? [] });
  }
  return out;
}
