import { useState, type KeyboardEvent } from 'react';
import { fileKey, type FileRef } from '../../../store/flows-slice.ts';
import { useStudio } from '../../../store/studio-store.ts';
import { deleteFile, renameFile } from './file-actions.ts';

/** One definition or flow test file: open it, see whether it has unsaved edits or problems, rename or delete it. */
export function FileRow({ file, test = false }: { file: FileRef; test?: boolean }) {
  const key = fileKey(file);
  const dirty = useStudio((s) => Boolean(s.dirtyFiles[key]));
  const open = useStudio((s) => s.openFile?.integration === file.integration && s.openFile.file === file.file);
  const problems = useStudio((s) => (s.designProblems[file.integration] ?? []).filter((p) => p.file === file.file).length);
  const setOpenFile = useStudio((s) => s.setOpenFile);
  const [mode, setMode] = useState<'view' | 'rename' | 'delete'>('view');

  if (mode === 'rename') {
    const onKey = (e: KeyboardEvent<HTMLInputElement>): void => {
      if (e.key === 'Escape') setMode('view');
      if (e.key === 'Enter') {
        const to = e.currentTarget.value;
        setMode('view');
        void renameFile(file, to);
      }
    };
    return (
      <li className="file-row">
        <input className="file-input" aria-label={`New name for ${file.file}`} defaultValue={file.file} autoFocus onKeyDown={onKey} onBlur={() => setMode('view')} />
      </li>
    );
  }
  if (mode === 'delete') {
    return (
      <li className="file-row confirm" role="group" aria-label={`Delete ${file.file}?`}>
        <span>Delete {file.file}?</span>
        <button type="button" className="danger" onClick={() => void deleteFile(file).then(() => setMode('view'))}>
          Delete
        </button>
        <button type="button" onClick={() => setMode('view')}>
          Cancel
        </button>
      </li>
    );
  }
  return (
    <li className={`file-row${open ? ' open' : ''}${test ? ' flow-test-file' : ''}`}>
      <button
        type="button"
        className="file-name"
        aria-current={open ? 'page' : undefined}
        aria-label={`${file.file}${test ? ' (flow tests)' : ''}${dirty ? ' (unsaved)' : ''}${problems ? `, ${problems} problem${problems === 1 ? '' : 's'}` : ''}`}
        onClick={() => setOpenFile(file)}
      >
        <span className="file-label" title={file.file}>
          {file.file}
        </span>
        {dirty ? (
          <span className="dirty-dot" title="Unsaved changes (Ctrl+S saves)">
            ●
          </span>
        ) : null}
        {problems ? <span className="problem-count">{problems}</span> : null}
      </button>
      <span className="file-actions">
        <button type="button" className="icon" title="Rename" aria-label={`Rename ${file.file}`} onClick={() => setMode('rename')}>
          ✎
        </button>
        <button type="button" className="icon" title="Delete" aria-label={`Delete ${file.file}`} onClick={() => setMode('delete')}>
          ✕
        </button>
      </span>
    </li>
  );
}
