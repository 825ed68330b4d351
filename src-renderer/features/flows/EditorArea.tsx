import { lazy, Suspense } from 'react';
import { fileKey } from '../../store/flows-slice.ts';
import { useStudio } from '../../store/studio-store.ts';
import { editorCommands } from './editor-commands.ts';

// Monaco and its workers are most of the renderer's weight; they load when the editor first shows.
const EditorPane = lazy(() => import('./editor/EditorPane.tsx'));

/** The open file's name, unsaved marker and Save, above the editor. */
export function EditorArea() {
  const openFile = useStudio((s) => s.openFile);
  const dirty = useStudio((s) => (openFile ? Boolean(s.dirtyFiles[fileKey(openFile)]) : false));
  const running = useStudio((s) => (openFile ? s.runs[openFile.integration]?.status === 'running' : false));
  return (
    <div className="editor-area">
      <div className="editor-toolbar">
        {openFile ? (
          <>
            <span className="editor-file" aria-label="Open file">
              <span className="editor-file-name">
                {openFile.integration}/<strong>{openFile.file}</strong>
              </span>
              {dirty ? (
                <span className="dirty-dot" aria-label="unsaved changes" title="Unsaved changes">
                  {' '}
                  ●
                </span>
              ) : null}
            </span>
            <span className="spacer" />
            <span className="muted save-hint">{running && !/\.test\.ya?ml$/.test(openFile.file) ? 'Ctrl+S saves and reloads' : 'Ctrl+S saves'}</span>
            <button type="button" onClick={() => void editorCommands()?.save()} disabled={!dirty} aria-label="Save file">
              Save
            </button>
          </>
        ) : (
          <span className="muted">Pick a file on the left, or create one.</span>
        )}
      </div>
      <Suspense fallback={<div className="flow-editor muted">Loading the editor…</div>}>
        <EditorPane />
      </Suspense>
    </div>
  );
}
