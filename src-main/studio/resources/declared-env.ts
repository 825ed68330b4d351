import { readEnvDeclarations, type EnvDeclaration } from '../../../shared/env-declarations.ts';

/** A variable a definition declares under `env:`, with where it is declared. */
export type DeclaredEnvVar = EnvDeclaration;

/**
 * The `env:` declarations of definition files. The environment view must work while a
 * definition is being written, so a file that does not parse adds a problem instead of failing
 * the whole view; the loader reports the details with file:line:col in the Flows panel.
 */
export function readDeclaredEnv(definitions: Array<{ file: string; text: string }>): { variables: DeclaredEnvVar[]; problems: string[] } {
  const variables: DeclaredEnvVar[] = [];
  const problems: string[] = [];
  for (const d of definitions) {
    const read = readEnvDeclarations(d.file, d.text);
    if ('yamlError' in read) {
      const at = read.yamlError.line !== undefined ? `:${read.yamlError.line}:${read.yamlError.col}` : '';
      problems.push(`${d.file}${at} is not valid YAML, so its variables are not shown; fix it in the Flows panel`);
      continue;
    }
    variables.push(...read.variables);
  }
  return { variables, problems };
}
