import type { RunProblem } from '../../../../shared/studio-api.ts';

export interface ListedProblem extends RunProblem {
  source: 'loader' | 'schema';
}

/**
 * The Problems view's rows: the loader's problems of every file of the integration, and the
 * schema's for opened files where the loader says nothing on that line (both usually describe
 * the same unknown key; the loader's words name the setting path and suggest a fix).
 */
export function listProblems(loader: readonly RunProblem[], schema: readonly RunProblem[]): ListedProblem[] {
  const lines = new Set(loader.map((p) => `${p.file}:${p.line}`));
  const rows: ListedProblem[] = [
    ...loader.map((p) => ({ ...p, source: 'loader' as const })),
    ...schema.filter((p) => !lines.has(`${p.file}:${p.line}`)).map((p) => ({ ...p, source: 'schema' as const })),
  ];
  return rows.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.col - b.col);
}
