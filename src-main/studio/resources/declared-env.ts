import { isMap, isScalar, LineCounter, parseDocument, type Node } from 'yaml';

/** A variable a definition declares under `env:`, with where it is declared. */
export interface DeclaredEnvVar {
  name: string;
  description?: string;
  required: boolean;
  secret: boolean;
  default?: string;
  declaredIn: string;
  line: number;
}

/**
 * Reads the `env:` declarations of definition files. The environment view must work while a
 * definition is being written, so a file that does not parse adds a problem instead of failing
 * the whole view; the loader reports the details with file:line:col in the Flows panel.
 */
export function readDeclaredEnv(definitions: Array<{ file: string; text: string }>): { variables: DeclaredEnvVar[]; problems: string[] } {
  const variables: DeclaredEnvVar[] = [];
  const problems: string[] = [];
  for (const d of definitions) {
    const lines = new LineCounter();
    const doc = parseDocument(d.text, { lineCounter: lines });
    if (doc.errors.length > 0) {
      const at = doc.errors[0].linePos?.[0];
      problems.push(`${d.file}${at ? `:${at.line}:${at.col}` : ''} is not valid YAML, so its variables are not shown; fix it in the Flows panel`);
      continue;
    }
    const env = isMap(doc.contents) ? (doc.contents.get('env', true) as Node | undefined) : undefined;
    if (!isMap(env)) continue;
    for (const pair of env.items) {
      const key = pair.key as Node | null;
      const name = isScalar(key) ? String(key.value) : String(key);
      const decl = isMap(pair.value) ? pair.value : undefined;
      const field = (k: string): unknown => {
        const v = decl?.get(k, true) as Node | undefined;
        return isScalar(v) ? v.value : undefined;
      };
      const description = field('description');
      const fallback = field('default');
      const offset = key && 'range' in key && key.range ? key.range[0] : 0;
      variables.push({
        name,
        ...(typeof description === 'string' ? { description } : {}),
        required: field('required') === true,
        secret: field('secret') === true,
        ...(fallback !== undefined && fallback !== null ? { default: String(fallback) } : {}),
        declaredIn: d.file,
        line: lines.linePos(offset).line,
      });
    }
  }
  return { variables, problems };
}
