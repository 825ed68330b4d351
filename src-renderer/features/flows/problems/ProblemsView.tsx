import { useMemo } from 'react';
import { useStudio } from '../../../store/studio-store.ts';
import { openFileAt } from '../editor-commands.ts';
import { listProblems } from './problem-list.ts';

const none: never[] = [];

/** Every problem of the open file's integration, as the loader and the schema see the buffers; a click goes there. */
export function ProblemsView() {
  const integration = useStudio((s) => s.openFile?.integration);
  const loader = useStudio((s) => (integration ? s.designProblems[integration] : undefined) ?? none);
  const schemaByFile = useStudio((s) => s.schemaProblems);
  const files = useStudio((s) => s.integrations.find((i) => i.id === integration)?.definitionFiles) ?? none;
  const rows = useMemo(
    () => listProblems(loader, files.flatMap((f) => schemaByFile[`${integration}/${f}`] ?? [])),
    [loader, schemaByFile, files, integration],
  );
  if (!integration) return <p className="muted pane-empty">Open a definition file to see its problems.</p>;
  if (rows.length === 0) {
    return (
      <p className="muted pane-empty" role="status">
        No problems: {integration} loads as written.
      </p>
    );
  }
  return (
    <ul className="problem-list" aria-label="Definition problems">
      {rows.map((p, i) => (
        <li key={`${p.file}:${p.line}:${p.col}:${i}`}>
          <button type="button" className={`problem problem-${p.source}`} onClick={() => openFileAt({ integration, file: p.file }, p.line, p.col)}>
            <code className="where">
              {p.file}:{p.line}:{p.col}
            </code>
            {p.path ? <code className="muted setting-path">{p.path}</code> : null}
            <span className="message">{p.message}</span>
            {p.source === 'schema' ? <span className="muted source">schema</span> : null}
          </button>
        </li>
      ))}
    </ul>
  );
}

/** The count on the Problems tab. */
export function useProblemCount(): number {
  const integration = useStudio((s) => s.openFile?.integration);
  const loader = useStudio((s) => (integration ? s.designProblems[integration] : undefined) ?? none);
  const schemaByFile = useStudio((s) => s.schemaProblems);
  const files = useStudio((s) => s.integrations.find((i) => i.id === integration)?.definitionFiles) ?? none;
  return useMemo(() => listProblems(loader, files.flatMap((f) => schemaByFile[`${integration}/${f}`] ?? [])).length, [loader, schemaByFile, files, integration]);
}
