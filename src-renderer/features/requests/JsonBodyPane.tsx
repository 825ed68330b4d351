import { useEffect, useRef } from 'react';
import { isDark, watchDarkness } from '../../shell/theme.ts';
import { monaco } from '../flows/editor/monaco-setup.ts';
import { jsonBodyProblem } from './json-body.ts';

export interface JsonBodyPaneProps {
  text: string;
  onChange(text: string): void;
  /** Names offered as `{{name}}` after `{{`: the chosen route's path parameters and the environment's variables. */
  variables: string[];
}

const LANGUAGE = 'composer-json';
let models = 0;
let registered = false;

/**
 * JSON highlighting with `{{variables}}`, under our own language id: Monaco's built-in `json`
 * wants a JSON worker the studio does not bundle, and validation here is ours (variables allowed).
 */
function registerBodyLanguage(): void {
  if (registered) return;
  registered = true;
  monaco.languages.register({ id: LANGUAGE });
  monaco.languages.setMonarchTokensProvider(LANGUAGE, {
    tokenizer: {
      root: [
        [/\{\{\s*[\w.-]+\s*\}\}/, 'variable'],
        [/"(?:[^"\\{]|\\.|\{(?!\{))*"(?=\s*:)/, 'type'],
        [/"/, 'string', '@string'],
        [/-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/, 'number'],
        [/\b(?:true|false|null)\b/, 'keyword'],
        [/[{}[\],:]/, 'delimiter'],
        [/\s+/, ''],
        [/./, 'invalid'],
      ],
      string: [
        [/\{\{\s*[\w.-]+\s*\}\}/, 'variable'],
        [/[^"\\{]+/, 'string'],
        [/\\./, 'string.escape'],
        [/\{/, 'string'],
        [/"/, 'string', '@pop'],
      ],
    },
  });
}

/**
 * The composer's JSON body in Monaco: JSON highlighting, a marker where the JSON breaks (with
 * `{{variables}}` allowed, as they are filled in at send time) and `{{` completing the variables
 * the request can use. Typing aids that rewrite text are off, so what is typed is what is sent.
 */
export default function JsonBodyPane({ text, onChange, variables }: JsonBodyPaneProps) {
  const container = useRef<HTMLDivElement>(null);
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | undefined>(undefined);
  const latest = useRef({ onChange, variables });
  latest.current = { onChange, variables };

  useEffect(() => {
    registerBodyLanguage();
    const model = monaco.editor.createModel(text, LANGUAGE, monaco.Uri.parse(`inmemory://composer/body-${++models}.json`));
    const editor = monaco.editor.create(container.current!, {
      model,
      automaticLayout: true,
      minimap: { enabled: false },
      fontSize: 13,
      lineNumbers: 'off',
      folding: false,
      scrollBeyondLastLine: false,
      wordWrap: 'on',
      autoClosingBrackets: 'never',
      autoClosingQuotes: 'never',
      autoSurround: 'never',
      autoIndent: 'none',
      formatOnType: false,
      quickSuggestions: false,
      wordBasedSuggestions: 'off',
      fixedOverflowWidgets: true,
      theme: isDark() ? 'vs-dark' : 'vs',
      ariaLabel: 'Body',
    });
    editorRef.current = editor;
    const mark = (): void => {
      const problem = jsonBodyProblem(model.getValue());
      const at = problem?.offset !== undefined ? model.getPositionAt(problem.offset) : model.getPositionAt(model.getValueLength());
      monaco.editor.setModelMarkers(
        model,
        'composer-json',
        problem ? [{ severity: monaco.MarkerSeverity.Error, message: `Not valid JSON: ${problem.message}`, startLineNumber: at.lineNumber, startColumn: at.column, endLineNumber: at.lineNumber, endColumn: at.column + 1 }] : [],
      );
    };
    mark();
    const changes = model.onDidChangeContent(() => {
      mark();
      latest.current.onChange(model.getValue());
    });
    // `{{` offers the variables; only in this model.
    const completion = monaco.languages.registerCompletionItemProvider(LANGUAGE, {
      triggerCharacters: ['{'],
      provideCompletionItems(m, position) {
        if (m !== model) return { suggestions: [] };
        const before = m.getValueInRange({ startLineNumber: position.lineNumber, startColumn: 1, endLineNumber: position.lineNumber, endColumn: position.column });
        const open = /\{\{\s*([\w.-]*)$/.exec(before);
        if (!open) return { suggestions: [] };
        const range = { startLineNumber: position.lineNumber, startColumn: position.column - open[1].length, endLineNumber: position.lineNumber, endColumn: position.column };
        return {
          suggestions: latest.current.variables.map((name) => ({ label: name, kind: monaco.languages.CompletionItemKind.Variable, insertText: `${name}}}`, range, detail: 'filled in when sent' })),
        };
      },
    });
    const scheme = watchDarkness((dark) => monaco.editor.setTheme(dark ? 'vs-dark' : 'vs'));
    return () => {
      scheme.dispose();
      completion.dispose();
      changes.dispose();
      editor.dispose();
      model.dispose();
      editorRef.current = undefined;
    };
    // The model owns the text once created; outside changes arrive through the effect below.
  }, []);

  // A Format click or a loaded request replaces the text: take it over unless it is what we hold.
  useEffect(() => {
    const model = editorRef.current?.getModel();
    if (model && model.getValue() !== text) model.setValue(text);
  }, [text]);

  return <div ref={container} className="json-body-editor" data-testid="body-editor" />;
}
