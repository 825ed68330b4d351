import type { CelSample } from '../../../../shared/flow-design.ts';
import { fileKey } from '../../../store/flows-slice.ts';
import { useStudio } from '../../../store/studio-store.ts';
import type { AnalysisClient } from '../analysis/analysis-client.ts';
import { celSuggestions, type CelSuggestion } from '../analysis/cel-completion.ts';
import type { CelScope } from '../analysis/cel-scope.ts';
import { sampleFor, tracedInputs } from '../playground/sample-message.ts';
import { documentOf, refOfModel } from './analysed-document.ts';
import { monaco } from './monaco-setup.ts';

/** The CEL expression at a position of a model: its text before and after the position, and what it can read there. */
export interface CelAtPosition {
  prefix: string;
  suffix: string;
  /** Variables known where the expression runs. */
  scope?: CelScope;
  /** The message to complete fields of: the last real one there, else one made up from the scope. */
  sample?: CelSample;
}

/** Where a model holds CEL: a setting of a definition file (celInDefinition), a CEL field of the graph's settings form. */
export type CelLocator = (model: monaco.editor.ITextModel, offset: number) => Promise<CelAtPosition | undefined>;

const KINDS: Record<CelSuggestion['kind'], monaco.languages.CompletionItemKind> = {
  variable: monaco.languages.CompletionItemKind.Variable,
  field: monaco.languages.CompletionItemKind.Field,
  function: monaco.languages.CompletionItemKind.Function,
  method: monaco.languages.CompletionItemKind.Method,
  keyword: monaco.languages.CompletionItemKind.Keyword,
};

/**
 * The CEL inside a definition file: the analysis worker says whether the offset is in a CEL
 * setting, which step it belongs to and the variables known there.
 */
export function celInDefinition(analysis: AnalysisClient): CelLocator {
  return async (model, offset) => {
    const ref = refOfModel(model);
    if (!ref) return undefined;
    const { context, scope } = await analysis.context(documentOf(model, fileKey(ref)), offset);
    if (!context.cel || model.isDisposed()) return undefined;
    const traced = tracedInputs(useStudio.getState().runStats, ref.integration, context.flow, context.stepPath);
    const { sample } = sampleFor(traced, context.stepPath, scope);
    return { prefix: context.cel.prefix, suffix: context.cel.expression.slice(context.cel.prefix.length), scope, sample };
  };
}

/**
 * Completion inside CEL: variables known at the step, fields of the sample message, functions
 * and methods. In a definition file it sits next to the schema's completion (monaco-yaml) and
 * offers nothing outside CEL values, so the schema's suggestions stand alone.
 */
export function registerCelCompletion(language: string, locate: CelLocator): monaco.IDisposable {
  return monaco.languages.registerCompletionItemProvider(language, {
    triggerCharacters: ['.'],
    async provideCompletionItems(model, position) {
      const reference = useStudio.getState().designReference;
      if (!reference) return { suggestions: [] };
      const offset = model.getOffsetAt(position);
      const cel = await locate(model, offset);
      if (!cel || model.isDisposed()) return { suggestions: [] };
      const suggestions = celSuggestions(cel.prefix, cel.scope, reference.celFunctions, cel.sample).map((s, i): monaco.languages.CompletionItem => {
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
