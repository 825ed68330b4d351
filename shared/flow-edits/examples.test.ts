import { basename } from 'node:path';
import { parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { discoverIntegrations, formatProblem, isFlowTestFile, LoadError, loadDefinition, readDefinitions, loadRegistry } from '../../src-main/runtime/index.ts';
import { deleteStep, duplicateStep, insertStep, moveStep, unwrapStep, wrapSteps, type FlowEditResult } from './index.ts';

const registry = await loadRegistry();

/** Comment lines of a text, trimmed: every one must survive an edit that removes no step. */
const comments = (text: string): string[] =>
  text
    .split('\n')
    .map((l) => /#.*$/.exec(l)?.[0].trim())
    .filter((c): c is string => c !== undefined && c.startsWith('#'));

/** Each flow's step count, read back from the text. */
function stepCounts(text: string): Record<string, number> {
  const flows = (parseDocument(text).toJSON() as { flows?: Record<string, { steps?: unknown[] }> }).flows ?? {};
  return Object.fromEntries(Object.entries(flows).map(([name, f]) => [name, f?.steps?.length ?? 0]));
}

const integrations = discoverIntegrations('examples').map((files) => readDefinitions(files.filter((f) => !isFlowTestFile(f))));

describe.each(integrations.map((defs) => [basename(defs[0].file.replace(/\/[^/]+$/, '')), defs] as const))('graph edits on the %s example', (_name, defs) => {
  const load = (file: string, text: string): void => {
    try {
      loadDefinition(
        defs.map((d) => (d.file === file ? { file, text } : d)),
        { registry, mode: 'validate' },
      );
    } catch (err) {
      if (err instanceof LoadError) throw new Error(`${file} no longer loads:\n${err.problems.map(formatProblem).join('\n')}\n---\n${text}`);
      throw err;
    }
  };

  for (const def of defs) {
    const flows = Object.entries(stepCounts(def.text)).filter(([, n]) => n > 0);
    it.each(flows)(`${basename(def.file)}: every edit of flow %s loads and keeps the comments`, (flow, n) => {
      const steps = `flows.${flow}.steps`;
      const check = (r: FlowEditResult, keepsAll = true): string => {
        load(def.file, r.text);
        if (keepsAll) expect(comments(r.text)).toEqual(expect.arrayContaining(comments(def.text)));
        return r.text;
      };
      const inserted = check(insertStep(def.text, { chain: steps, index: 1 }, { log: { message: '"edited on the graph"' } }));
      expect(stepCounts(inserted)[flow]).toBe(n + 1);
      check(duplicateStep(def.text, `${steps}[0]`));
      if (n > 1) {
        const moved = check(moveStep(def.text, `${steps}[${n - 1}]`, { chain: steps, index: 0 }));
        // Moving it back gives the file as it was, comments and blank lines in their places.
        expect(moveStep(moved, `${steps}[0]`, { chain: steps, index: n }).text).toBe(def.text);
      }
      const wrapped = check(wrapSteps(def.text, [`${steps}[0]`], { switch: { when: 'true' } }));
      expect(unwrapStep(wrapped, `${steps}[0]`).text).toBe(def.text);
      check(insertStep(def.text, { chain: `flows.${flow}.onError`, index: 0 }, { log: { message: '"failed"', level: 'error' } }));
      check(deleteStep(def.text, `${steps}[${n - 1}]`), false);
    });
  }
});
