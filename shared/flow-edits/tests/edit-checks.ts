import { expect } from 'vitest';
import { formatProblem, LoadError, loadDefinition, loadRegistry } from '../../../src-main/runtime/index.ts';
import { applyTextEdits, type FlowEditResult } from '../index.ts';

const registry = await loadRegistry();

/** Loads a definition the way `flow-studio validate` does; throws the loader's problems, located. */
export function expectLoads(text: string, file = 'flows.yaml'): void {
  try {
    loadDefinition([{ file, text }], { registry, mode: 'validate' });
  } catch (err) {
    if (err instanceof LoadError) throw new Error(`${file} does not load after the edit:\n${err.problems.map(formatProblem).join('\n')}\n---\n${text}`);
    throw err;
  }
}

/**
 * The edit gives exactly `after` (so every line it should not touch is byte for byte the same),
 * its replacements make the same text on the text before, and the result loads.
 */
export function expectEdit(before: string, result: FlowEditResult, after: string): void {
  expect(result.text).toBe(after);
  expect(applyTextEdits(before, result.edits)).toBe(after);
  expectLoads(after);
}
