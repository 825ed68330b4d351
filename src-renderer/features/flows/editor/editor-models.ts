import { studio } from '../../../api/studio-client.ts';
import { fileKey, type FileRef } from '../../../store/flows-slice.ts';
import { useStudio } from '../../../store/studio-store.ts';
import { monaco } from './monaco-setup.ts';
import { setDraftSource, takeDraft } from '../../../shell/tab-session.ts';

interface OpenModel {
  ref: FileRef;
  model: monaco.editor.ITextModel;
  /** The model's alternative version id when it matched the file on disk. */
  savedVersion: number;
  /** The text last read or saved, to tell our own save from another program's edit. */
  savedText: string;
}

const models = new Map<string, OpenModel>();

export function modelUri(ref: FileRef): monaco.Uri {
  return monaco.Uri.from({ scheme: 'file', path: `/${ref.integration}/${ref.file}` });
}

/**
 * One Monaco model per opened file, kept while the studio runs, so switching files keeps each
 * file's undo history and unsaved edits. The store learns which files differ from disk.
 */
export async function loadModel(ref: FileRef): Promise<monaco.editor.ITextModel> {
  const key = fileKey(ref);
  const known = models.get(key);
  if (known) return known.model;
  const text = await studio.readFile(ref.integration, ref.file);
  const raced = models.get(key);
  if (raced) return raced.model;
  const model = monaco.editor.createModel(text, 'yaml', modelUri(ref));
  model.updateOptions({ tabSize: 2, insertSpaces: true });
  const entry: OpenModel = { ref, model, savedVersion: model.getAlternativeVersionId(), savedText: text };
  models.set(key, entry);
  model.onDidChangeContent(() => useStudio.getState().setFileDirty(key, model.getAlternativeVersionId() !== entry.savedVersion));
  // What was typed before a reload comes back as an unsaved edit over the file, so undo reaches the file.
  const draft = takeDraft(key);
  if (draft !== undefined && draft.text !== text) {
    model.pushEditOperations([], [{ range: model.getFullModelRange(), text: draft.text }], () => null);
    // Said as when the file changes under an open buffer with unsaved edits (flow-editor's filesChangedOnDisk).
    if (draft.base !== undefined && draft.base !== text) {
      useStudio.getState().setNotice(`${ref.file} changed on disk since your unsaved edits; your edits are kept (saving overwrites it, undo goes back to the file on disk)`);
    }
  } else if (draft !== undefined) useStudio.getState().setFileDirty(key, false);
  return model;
}

setDraftSource(() => Object.fromEntries([...models].filter(([key]) => isDirty(key)).map(([key, m]) => [key, { text: m.model.getValue(), base: m.savedText }])));

export function openModel(key: string): OpenModel | undefined {
  return models.get(key);
}

export function modelsOf(integration: string): OpenModel[] {
  return [...models.values()].filter((m) => m.ref.integration === integration);
}

export function isDirty(key: string): boolean {
  const m = models.get(key);
  return m !== undefined && m.model.getAlternativeVersionId() !== m.savedVersion;
}

/** Writes the buffer to disk (a running integration hot-reloads) and marks it saved. */
export async function saveModel(key: string): Promise<void> {
  const m = models.get(key);
  if (!m) return;
  const version = m.model.getAlternativeVersionId();
  const text = m.model.getValue();
  await studio.writeFile(m.ref.integration, m.ref.file, text);
  m.savedVersion = version;
  m.savedText = text;
  useStudio.getState().setFileDirty(key, m.model.getAlternativeVersionId() !== version);
}

/**
 * The file changed on disk (another editor, a rename): an untouched buffer takes the new text as
 * an edit, so undo can still go back; a buffer with unsaved edits keeps them.
 */
export async function refreshFromDisk(key: string): Promise<'updated' | 'kept' | 'gone' | 'same'> {
  const m = models.get(key);
  if (!m) return 'same';
  let text: string;
  try {
    text = await studio.readFile(m.ref.integration, m.ref.file);
  } catch {
    return 'gone';
  }
  // Our own save coming back from the watcher, perhaps after more typing: nothing changed on disk.
  if (text === m.savedText) return 'same';
  if (isDirty(key)) return 'kept';
  m.savedText = text;
  if (text === m.model.getValue()) return 'same';
  m.model.pushEditOperations([], [{ range: m.model.getFullModelRange(), text }], () => null);
  m.savedVersion = m.model.getAlternativeVersionId();
  useStudio.getState().setFileDirty(key, false);
  return 'updated';
}

export function disposeModel(key: string): void {
  const m = models.get(key);
  if (!m) return;
  models.delete(key);
  m.model.dispose();
  useStudio.getState().setFileDirty(key, false);
}
