import * as monaco from 'monaco-editor';
import EditorWorker from 'monaco-editor/esm/vs/editor/editor.worker.js?worker';
import { configureMonacoYaml, type JSONSchema, type MonacoYaml } from 'monaco-yaml';
import JsonWorker from 'monaco-editor/esm/vs/language/json/json.worker.js?worker';
import YamlWorker from './yaml.worker.ts?worker';
import flowTestSchema from '../../../../shared/flow-test.schema.json' with { type: 'json' };

/*
 * Monaco and its workers are bundled with the app: `?worker` makes Vite emit each worker as a
 * file of our own origin, which is all the CSP (`worker-src 'self'`) allows. Nothing loads from
 * a CDN.
 */
globalThis.MonacoEnvironment = {
  getWorker(_moduleId: string, label: string): Worker {
    // JSON: the re-run message editor validates against its schema in this worker.
    return label === 'yaml' ? new YamlWorker() : label === 'json' ? new JsonWorker() : new EditorWorker();
  },
};

/*
 * Disposing an editor cancels its pending work (hover, links, highlights), and Monaco rejects
 * those promises with its CancellationError, `Canceled: Canceled`, that nobody awaits: a known
 * Monaco defect (microsoft/monaco-editor#2382, #4389). VS Code's own handler ignores exactly these;
 * this does the same for them alone, so every other unhandled rejection still reaches the console.
 */
window.addEventListener('unhandledrejection', (event) => {
  const reason: unknown = event.reason;
  if (reason instanceof Error && reason.name === 'Canceled' && reason.message === 'Canceled') event.preventDefault();
});

/** The schema's URI names it in hovers; it is never fetched (enableSchemaRequest is off). */
export const SCHEMA_URI = 'flow-studio://schema/flow-definition.schema.json';
export const TEST_SCHEMA_URI = 'flow-studio://schema/flow-test.schema.json';

let yaml: MonacoYaml | undefined;

/** Says, before monaco-yaml's worker is asked, whether its completion may offer anything here. */
export type SchemaCompletionGate = (model: monaco.editor.ITextModel, position: monaco.Position) => Promise<boolean>;
let schemaCompletionGate: SchemaCompletionGate | undefined;

/** The editor showing definitions sets the gate while it lives; without one every request passes. */
export function gateSchemaCompletion(gate: SchemaCompletionGate): monaco.IDisposable {
  schemaCompletionGate = gate;
  return { dispose: () => void (schemaCompletionGate === gate && (schemaCompletionGate = undefined)) };
}

/*
 * monaco-yaml takes the monaco namespace as an argument; the one it gets registers its completion
 * provider behind the gate, and everything else as monaco does.
 */
const gatedMonaco: typeof monaco = {
  ...monaco,
  languages: {
    ...monaco.languages,
    registerCompletionItemProvider(selector, provider) {
      return monaco.languages.registerCompletionItemProvider(selector, {
        ...provider,
        provideCompletionItems: async (model, position, context, token) => {
          const gate = schemaCompletionGate;
          if (gate && !(await gate(model, position))) return undefined;
          if (token.isCancellationRequested || model.isDisposed()) return undefined;
          return provider.provideCompletionItems(model, position, context, token);
        },
      });
    },
  },
};

/** Validation, completion and hover against the definition schema for every model we open. */
export function useDefinitionSchema(schema: Record<string, unknown>): void {
  const options = {
    enableSchemaRequest: false,
    hover: true,
    completion: true,
    validate: true,
    format: { enable: false },
    // The loader reads YAML 1.2 (`yes` is a string); its load diagnostics explain unquoted dates.
    yamlVersion: '1.2' as const,
    // Definitions: root-level files of an integration (`file:///<integration>/<file>.yaml`), except
    // the flow tests beside them (`<name>.test.yaml`), which have their own generated schema.
    schemas: [
      { uri: SCHEMA_URI, fileMatch: ['file:///*/*.yaml', 'file:///*/*.yml', '!file:///*/*.test.yaml', '!file:///*/*.test.yml'], schema: schema as JSONSchema },
      { uri: TEST_SCHEMA_URI, fileMatch: ['file:///*/*.test.yaml', 'file:///*/*.test.yml'], schema: flowTestSchema as JSONSchema },
    ],
  };
  if (yaml) void yaml.update(options);
  else yaml = configureMonacoYaml(gatedMonaco, options);
}

export { monaco };
