import { useEffect, useRef } from 'react';
import { isDark, watchDarkness } from '../../../shell/theme.ts';
import { monaco } from '../../flows/editor/monaco-setup.ts';
import { languageOf, registerResourceLanguages } from './resource-languages.ts';

export interface ResourceEditorProps {
  kind: 'env' | 'template';
  /** Names the model; the editor is created anew for another resource (the parent keys it). */
  path: string;
  initial: string;
  onChange(text: string): void;
  onSave(): void;
}

/**
 * Monaco on one resource, with the highlighting of its kind. Typing aids that rewrite what is
 * typed (auto-closing quotes and brackets, suggestions) are off: env files and templates are
 * literal text where `{{` must stay `{{`.
 */
export default function ResourceEditorPane({ kind, path, initial, onChange, onSave }: ResourceEditorProps) {
  const container = useRef<HTMLDivElement>(null);
  const handlers = useRef({ onChange, onSave });
  handlers.current = { onChange, onSave };

  useEffect(() => {
    registerResourceLanguages();
    const uri = monaco.Uri.parse(`inmemory://resources/${encodeURIComponent(path)}`);
    monaco.editor.getModel(uri)?.dispose();
    const model = monaco.editor.createModel(initial, languageOf(kind), uri);
    const editor = monaco.editor.create(container.current!, {
      model,
      automaticLayout: true,
      minimap: { enabled: false },
      fontSize: 13,
      scrollBeyondLastLine: false,
      wordWrap: kind === 'template' ? 'on' : 'off',
      autoClosingBrackets: 'never',
      autoClosingQuotes: 'never',
      autoSurround: 'never',
      autoIndent: 'none',
      quickSuggestions: false,
      suggestOnTriggerCharacters: false,
      wordBasedSuggestions: 'off',
      fixedOverflowWidgets: true,
      theme: isDark() ? 'vs-dark' : 'vs',
      ariaLabel: `Editor of ${path}`,
    });
    const changes = editor.onDidChangeModelContent(() => handlers.current.onChange(editor.getValue()));
    editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, () => handlers.current.onSave());
    const scheme = watchDarkness((dark) => monaco.editor.setTheme(dark ? 'vs-dark' : 'vs'));
    return () => {
      scheme.dispose();
      changes.dispose();
      editor.dispose();
      model.dispose();
    };
    // The initial text seeds the model once; later edits live in the model.
  }, [kind, path]);

  return <div ref={container} className="rs-editor" data-testid="resource-editor" />;
}
