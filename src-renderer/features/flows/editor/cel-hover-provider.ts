import { useStudio } from '../../../store/studio-store.ts';
import { celHover } from '../analysis/cel-hover.ts';
import type { CelLocator } from './cel-completion-provider.ts';
import { monaco } from './monaco-setup.ts';

/**
 * Hover documentation inside CEL: the signature, description and example of the function or
 * method under the mouse, from the same catalog completion uses (shared/cel-functions.ts for the
 * extension libraries). In a definition file it shows nothing outside CEL values, leaving the
 * schema's hover alone.
 */
export function registerCelHover(language: string, locate: CelLocator): monaco.IDisposable {
  return monaco.languages.registerHoverProvider(language, {
    async provideHover(model, position) {
      const reference = useStudio.getState().designReference;
      if (!reference) return null;
      const offset = model.getOffsetAt(position);
      const cel = await locate(model, offset);
      if (!cel || model.isDisposed()) return null;
      const found = celHover(cel.prefix, cel.suffix, reference.celFunctions);
      if (!found) return null;
      const start = model.getPositionAt(offset + found.start);
      const end = model.getPositionAt(offset + found.end);
      return {
        range: new monaco.Range(start.lineNumber, start.column, end.lineNumber, end.column),
        contents: [{ value: found.markdown }],
      };
    },
  });
}
