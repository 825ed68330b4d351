import { chainShapesOf, stepAt, stepLocations, type ChainShapes, type StepLocation } from '../../../shared/step-paths.ts';
import type { DefinitionText } from '../core/load/integration-files.ts';
import type { ComponentRegistry } from '../core/registry-types.ts';
import type { StepPlace } from './debug-target.ts';

/** Where each block keeps nested steps, read from the registry's specs (the same the loader builds chains from). */
export function registryChainShapes(registry: ComponentRegistry): ChainShapes {
  return chainShapesOf([...registry.blocks.values()].map((b) => ({ type: b.def.type, settings: b.def.settings })));
}

/**
 * The steps of a definition's files with their lines: a debugger's frames say where a step is, and
 * a breakpoint set on a line finds its step. Built from the texts a runtime was loaded from.
 */
export class DefinitionSteps {
  private readonly byFile = new Map<string, StepLocation[]>();

  constructor(texts: readonly DefinitionText[], shapes: ChainShapes) {
    for (const t of texts) this.byFile.set(t.file, stepLocations(t.text, shapes));
  }

  /** The steps of one file, in document order; empty for a file it was not given. */
  of(file: string): readonly StepLocation[] {
    return this.byFile.get(file) ?? [];
  }

  /** The file, line, block and name of a step path. */
  readonly locate = (step: string): StepPlace | undefined => {
    for (const [file, steps] of this.byFile) {
      const s = stepAt(steps, step);
      if (s) return { file, line: s.line, block: s.block, ...(s.name !== undefined ? { name: s.name } : {}) };
    }
    return undefined;
  };
}
