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
    () =>
      listProblems(
        loader,
        files.flatMap((f) => schemaByFile[`${integration}/${f}`] ?? []),
      ),
    [loader, schemaByFile, files, integration],
  );
  const runFailure = useRunFailure(integration);
  if (!integration) return <p className="muted pane-empty">Open a definition file to see its problems.</p>;
  const failure = runFailure ? (
    <p className="run-failure" role="alert" aria-label={`Run of ${integration} failed`}>
      <strong>Run failed</strong> {runFailure}
    </p>
  ) : null;
  if (rows.length === 0) {
    return (
      failure ?? (
        <p className="muted pane-empty" role="status">
          No problems: {integration} loads as written.
        </p>
      )
    );
  }
  return (
    <>
      {failure}
      <ul className="problem-list" aria-label="Definition problems">
        {rows.map((p, i) => (
          <li key={`${p.file}:${p.line}:${p.col}:${i}`}>
            <button type="button" className={`problem problem-${p.source}`} onClick={() => openFileAt({ integration, file: p.file }, p.line, p.col)}>
              <code className="where" title={`${p.file}:${p.line}:${p.col}`}>
                <span dir="ltr">
                  {p.file}:{p.line}:{p.col}
                </span>
              </code>
              {p.path ? (
                <code className="muted setting-path" title={p.path}>
                  {p.path}
                </code>
              ) : null}
              <span className="message">{p.message}</span>
              {p.source === 'schema' ? <span className="muted source">schema</span> : null}
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}

/**
 * Why the last Run of the integration failed, when it did: a definition can load as written and
 * still fail to start (a server it needs is unreachable, a port is taken).
 */
function useRunFailure(integration: string | undefined): string | undefined {
  return useStudio((s) => {
    const run = integration ? s.runs[integration] : undefined;
    // A definition that does not load already lists its problems; this is for failures beyond them.
    return run?.status === 'failed' && run.problems.length === 0 ? (run.reason ?? 'the integration did not start') : undefined;
  });
}

/** The count on the Problems tab. */
export function useProblemCount(): number {
  const integration = useStudio((s) => s.openFile?.integration);
  const loader = useStudio((s) => (integration ? s.designProblems[integration] : undefined) ?? none);
  const schemaByFile = useStudio((s) => s.schemaProblems);
  const files = useStudio((s) => s.integrations.find((i) => i.id === integration)?.definitionFiles) ?? none;
  const failed = useRunFailure(integration) !== undefined;
  const listed = useMemo(
    () =>
      listProblems(
        loader,
        files.flatMap((f) => schemaByFile[`${integration}/${f}`] ?? []),
      ).length,
    [loader, schemaByFile, files, integration],
  );
  return listed + (failed ? 1 : 0);
}
