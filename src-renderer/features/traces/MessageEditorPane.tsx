import { useEffect, useRef } from 'react';
import { monaco } from '../flows/editor/monaco-setup.ts';

/** What the edited message must be: `{body, vars}`, vars an object. Checked as you type. */
const MESSAGE_SCHEMA = {
  type: 'object',
  required: ['body', 'vars'],
  additionalProperties: false,
  properties: {
    body: { description: 'The body that enters the step: any JSON value.' },
    vars: { type: 'object', description: 'The message variables that enter the step.' },
  },
};

/**
 * Monaco on the message that enters a step, as JSON validated against `{body, vars}`: a syntax
 * error or a missing field is marked where it is, and `onValid` hears only messages that pass.
 */
export default function MessageEditorPane({ id, initial, onChange }: { id: string; initial: string; onChange(text: string, problems: string[]): void }) {
  const container = useRef<HTMLDivElement>(null);
  const handler = useRef(onChange);
  handler.current = onChange;
  useEffect(() => {
    const uri = monaco.Uri.parse(`inmemory://rerun/${encodeURIComponent(id)}.json`);
    const json = monaco.languages.json.jsonDefaults;
    const others = (json.diagnosticsOptions.schemas ?? []).filter((s) => s.uri !== 'flow-studio://schema/rerun-message.json');
    json.setDiagnosticsOptions({
      validate: true,
      allowComments: false,
      schemas: [...others, { uri: 'flow-studio://schema/rerun-message.json', fileMatch: ['inmemory://rerun/*'], schema: MESSAGE_SCHEMA }],
    });
    monaco.editor.getModel(uri)?.dispose();
    const model = monaco.editor.createModel(initial, 'json', uri);
    const editor = monaco.editor.create(container.current!, {
      model,
      automaticLayout: true,
      minimap: { enabled: false },
      fontSize: 13,
      scrollBeyondLastLine: false,
      fixedOverflowWidgets: true,
      // What is typed stays as typed: the message is checked, not completed behind the user's back.
      autoClosingBrackets: 'never',
      autoClosingQuotes: 'never',
      autoSurround: 'never',
      theme: matchMedia('(prefers-color-scheme: dark)').matches ? 'vs-dark' : 'vs',
      ariaLabel: 'Message entering the step (JSON)',
    });
    const report = (): void => {
      const markers = monaco.editor.getModelMarkers({ resource: uri }).filter((m) => m.severity >= monaco.MarkerSeverity.Warning);
      handler.current(
        editor.getValue(),
        markers.map((m) => `line ${m.startLineNumber}:${m.startColumn} ${m.message}`),
      );
    };
    const changes = editor.onDidChangeModelContent(report);
    const marks = monaco.editor.onDidChangeMarkers((uris) => {
      if (uris.some((u) => u.toString() === uri.toString())) report();
    });
    return () => {
      changes.dispose();
      marks.dispose();
      editor.dispose();
      model.dispose();
    };
    // The initial text seeds the model once; later edits live in the model.
  }, [id]);
  return <div ref={container} className="rerun-editor" data-testid="rerun-editor" />;
}
