import type { FileRef } from '../../../store/flows-slice.ts';
import type { AnalysedDocument } from '../analysis/analysis-client.ts';
import type { monaco } from './monaco-setup.ts';

/** A model as the analysis worker sees it: its key, its version, its text on demand. */
export function documentOf(model: monaco.editor.ITextModel, key: string): AnalysedDocument {
  return { key, version: model.getVersionId(), text: () => model.getValue() };
}

/** The integration and file a model belongs to, from its URI `file:///<integration>/<file>`. */
export function refOfModel(model: monaco.editor.ITextModel): FileRef | undefined {
  const m = /^\/([^/]+)\/([^/]+)$/.exec(model.uri.path);
  return m ? { integration: m[1], file: m[2] } : undefined;
}
