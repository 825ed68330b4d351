import { useEffect, useRef } from 'react';
import type { CelSample } from '../../../../shared/flow-design.ts';
import { isDark } from '../../../shell/theme.ts';
import type { CelScope } from '../analysis/cel-scope.ts';
import { registerCelCompletion, type CelLocator } from './cel-completion-provider.ts';
import { registerCelHover } from './cel-hover-provider.ts';
import { monaco } from './monaco-setup.ts';

/** What a CEL field's expression can read: the variables known at its step and the message to complete fields of. */
export interface CelFieldContext {
  scope?: CelScope;
  sample?: CelSample;
}

const LANGUAGE = 'flow-cel';
const MAX_HEIGHT = 80;
/** Each field's context, by its model's URI, read when completion or hover asks. */
const contexts = new Map<string, () => CelFieldContext>();
let fieldCount = 0;

const celInField: CelLocator = async (model, offset) => {
  const context = contexts.get(model.uri.toString());
  if (!context) return undefined;
  const text = model.getValue();
  return { prefix: text.slice(0, offset), suffix: text.slice(offset), ...context() };
};

let registered = false;
/** The language of the form's CEL fields, with the text editor's completion and hover (one registration for all fields). */
function registerLanguage(): void {
  if (registered) return;
  registered = true;
  monaco.languages.register({ id: LANGUAGE });
  monaco.languages.setMonarchTokensProvider(LANGUAGE, {
    tokenizer: {
      root: [
        [/"([^"\\]|\\.)*"|'([^'\\]|\\.)*'/, 'string'],
        [/\b(true|false|null|in)\b/, 'keyword'],
        [/\d+(\.\d+)?[uU]?/, 'number'],
        [/[A-Za-z_]\w*/, 'identifier'],
      ],
    },
  });
  registerCelCompletion(LANGUAGE, celInField);
  registerCelHover(LANGUAGE, celInField);
}

/**
 * A CEL setting of the graph's settings form as a one-line Monaco editor (taller when the
 * expression wraps): the text editor's completion and hover, Enter or leaving it commits,
 * Escape goes back to the file's value. Loaded on demand with Monaco.
 */
export default function CelFieldEditor({
  id,
  label,
  initial,
  invalid,
  describedBy,
  placeholder,
  context,
  onChange,
  onCommit,
}: {
  id: string;
  label: string;
  /** The file's value: Escape goes back to it (a new one from the file remounts the field). */
  initial: string;
  invalid: boolean;
  describedBy: string | undefined;
  placeholder: string;
  context: CelFieldContext;
  onChange(text: string): void;
  onCommit(text: string): void;
}) {
  const host = useRef<HTMLDivElement>(null);
  const latest = useRef({ context, onChange, onCommit });
  latest.current = { context, onChange, onCommit };

  useEffect(() => {
    registerLanguage();
    const uri = monaco.Uri.parse(`inmemory://cel-field/${++fieldCount}`);
    const model = monaco.editor.createModel(initial, LANGUAGE, uri);
    contexts.set(uri.toString(), () => latest.current.context);
    const e = monaco.editor.create(host.current!, {
      model,
      ariaLabel: label,
      theme: isDark() ? 'vs-dark' : 'vs',
      fontSize: 11,
      lineHeight: 18,
      fontFamily: 'ui-monospace, Menlo, Consolas, monospace',
      lineNumbers: 'off',
      glyphMargin: false,
      folding: false,
      lineDecorationsWidth: 2,
      lineNumbersMinChars: 0,
      minimap: { enabled: false },
      scrollbar: { vertical: 'hidden', horizontal: 'hidden', alwaysConsumeMouseWheel: false },
      overviewRulerLanes: 0,
      overviewRulerBorder: false,
      hideCursorInOverviewRuler: true,
      renderLineHighlight: 'none',
      scrollBeyondLastLine: false,
      wordWrap: 'on',
      automaticLayout: true,
      fixedOverflowWidgets: true,
      contextmenu: false,
      links: false,
      occurrencesHighlight: 'off',
      wordBasedSuggestions: 'off',
      quickSuggestions: { other: true, strings: false, comments: false },
      quickSuggestionsDelay: 120,
      // Tab leaves the field, as it leaves every other field of the form.
      tabFocusMode: true,
      placeholder,
    });
    // The element this editor lives in, not the ref: React clears the ref when the field unmounts,
    // before this effect's clean-up, and Monaco may lay out (and so resize) in between.
    const box = host.current!;
    const fit = (): void => {
      box.style.height = `${Math.min(MAX_HEIGHT, e.getContentHeight())}px`;
    };
    fit();
    e.addAction({ id: 'cel-field-commit', label: 'Commit', keybindings: [monaco.KeyCode.Enter], precondition: '!suggestWidgetVisible', run: () => latest.current.onCommit(e.getValue()) });
    e.addAction({ id: 'cel-field-revert', label: 'Revert', keybindings: [monaco.KeyCode.Escape], precondition: '!suggestWidgetVisible', run: () => e.setValue(initial) });
    const subscriptions = [
      e.onDidContentSizeChange(fit),
      e.onDidChangeModelContent(() => latest.current.onChange(e.getValue())),
      e.onDidBlurEditorWidget(() => latest.current.onCommit(e.getValue())),
    ];
    return () => {
      for (const s of subscriptions) s.dispose();
      contexts.delete(uri.toString());
      e.dispose();
      model.dispose();
    };
    // The model is seeded once: later text lives in it (a new value from the file remounts the field).
  }, []);

  return <div ref={host} id={id} className="cel-field" aria-invalid={invalid} aria-describedby={describedBy} data-testid={`cel-field-${label}`} />;
}
