import { isMap, isScalar, LineCounter, parseDocument, type Node } from 'yaml';

/** A variable a definition declares under `env:` (docs/flows.md), with where it is declared. */
export interface EnvDeclaration {
  name: string;
  description?: string;
  required: boolean;
  secret: boolean;
  default?: string;
  /** The definition file that declares it. */
  declaredIn: string;
  /** 1-based line of its name in that file. */
  line: number;
}

export type EnvDeclarations = { variables: EnvDeclaration[] } | { yamlError: { code: string; line?: number; col?: number } };

/**
 * Reads just the `env:` declarations of one definition file, leniently: the studio's environment
 * view and the platform's deploy-time binding both need the declared variables without validating
 * flows (the runtime's loader does that, with the full spec). A file that is not YAML is reported
 * for the caller to word: the studio shows a problem, the platform refuses the tag.
 */
export function readEnvDeclarations(file: string, text: string): EnvDeclarations {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  const error = doc.errors[0];
  if (error) {
    const at = error.linePos?.[0];
    return { yamlError: { code: error.code, ...(at ? { line: at.line, col: at.col } : {}) } };
  }
  const env = isMap(doc.contents) ? (doc.contents.get('env', true) as Node | undefined) : undefined;
  if (!isMap(env)) return { variables: [] };
  const variables: EnvDeclaration[] = [];
  for (const pair of env.items) {
    const key = pair.key as Node | null;
    const decl = isMap(pair.value) ? pair.value : undefined;
    const field = (k: string): unknown => {
      const v = decl?.get(k, true) as Node | undefined;
      return isScalar(v) ? v.value : undefined;
    };
    const description = field('description');
    const fallback = field('default');
    const offset = key && 'range' in key && key.range ? key.range[0] : 0;
    variables.push({
      name: isScalar(key) ? String(key.value) : String(key),
      ...(typeof description === 'string' ? { description } : {}),
      required: field('required') === true,
      secret: field('secret') === true,
      ...(fallback !== undefined && fallback !== null ? { default: String(fallback) } : {}),
      declaredIn: file,
      line: lines.linePos(offset).line,
    });
  }
  return { variables };
}
