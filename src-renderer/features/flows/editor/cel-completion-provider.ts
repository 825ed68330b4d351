import { fileKey } from '../../../store/flows-slice.ts';
import { useStudio } from '../../../store/studio-store.ts';
import type { AnalysisClient } from '../analysis/analysis-client.ts';
import { celSuggestions, type CelSuggestion } from '../analysis/cel-completion.ts';
import { sampleFor, tracedInputs } from '../playground/sample-message.ts';
import { documentOf, refOfModel } from './analysed-document.ts';
import { monaco } from './monaco-setup.ts';

const KINDS: Record<CelSuggestion['kind'], monaco.languages.CompletionItemKind> = {
  variable: monaco.languages.CompletionItemKind.Variable,
  field: monaco.languages.CompletionItemKind.Field,
  function: monaco.languages.CompletionItemKind.Function,
  method: monaco.languages.CompletionItemKind.Method,
  keyword: monaco.languages.CompletionItemKind.Keyword,
};

/**
 * Completion inside CEL settings, next to the schema's completion (monaco-yaml): variables
 * known at the step, fields of the sample message, functions and methods. Outside CEL values it
 * offers nothing, so the schema's suggestions stand alone.
 */
export function registerCelCompletion(analysis: AnalysisClient): monaco.IDisposable {
  return monaco.languages.registerCompletionItemProvider('yaml', {
    triggerCharacters: ['.'],
    async provideCompletionItems(model, position) {
      const ref = refOfModel(model);
      const reference = useStudio.getState().designReference;
      if (!ref || !reference) return { suggestions: [] };
      const offset = model.getOffsetAt(position);
      const { context, scope } = await analysis.context(documentOf(model, fileKey(ref)), offset);
      if (!context.cel || model.isDisposed()) return { suggestions: [] };
      const traced = tracedInputs(useStudio.getState().runStats, ref.integration, context.flow, context.stepPath);
      const { sample } = sampleFor(traced, context.stepPath, scope);
      const suggestions = celSuggestions(context.cel.prefix, scope, reference.celFunctions, sample).map((s, i): monaco.languages.CompletionItem => {
        const start = model.getPositionAt(offset - s.replace);
        return {
          label: s.label,
          kind: KINDS[s.kind],
          detail: s.detail,
          documentation: s.documentation ? { value: s.documentation } : undefined,
          insertText: s.insertText,
          insertTextRules: s.snippet ? monaco.languages.CompletionItemInsertTextRule.InsertAsSnippet : undefined,
          range: new monaco.Range(start.lineNumber, start.column, position.lineNumber, position.column),
          // Fields and variables first: they are what the person is after when typing `vars.`.
          sortText: `${s.kind === 'field' || s.kind === 'variable' ? 0 : s.kind === 'method' || s.kind === 'function' ? 1 : 2}${String(i).padStart(4, '0')}`,
          filterText: s.replace > 0 && s.insertText.startsWith('[') ? `.${s.label}` : s.label,
        };
      });
      return { suggestions };
    },
  });
}
