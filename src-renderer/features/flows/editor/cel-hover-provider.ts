import { fileKey } from '../../../store/flows-slice.ts';
import { useStudio } from '../../../store/studio-store.ts';
import type { AnalysisClient } from '../analysis/analysis-client.ts';
import { celHover } from '../analysis/cel-hover.ts';
import { documentOf, refOfModel } from './analysed-document.ts';
import { monaco } from './monaco-setup.ts';

/**
 * Hover documentation inside CEL settings: the signature, description and example of the function
 * or method under the mouse, from the same catalog completion uses (shared/cel-functions.ts for
 * the extension libraries). Outside CEL values it shows nothing, leaving the schema's hover alone.
 */
export function registerCelHover(analysis: AnalysisClient): monaco.IDisposable {
  return monaco.languages.registerHoverProvider('yaml', {
    async provideHover(model, position) {
      const ref = refOfModel(model);
      const reference = useStudio.getState().designReference;
      if (!ref || !reference) return null;
      const offset = model.getOffsetAt(position);
      const { context } = await analysis.context(documentOf(model, fileKey(ref)), offset);
      if (!context.cel || model.isDisposed()) return null;
      const suffix = context.cel.expression.slice(context.cel.prefix.length);
      const found = celHover(context.cel.prefix, suffix, reference.celFunctions);
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
