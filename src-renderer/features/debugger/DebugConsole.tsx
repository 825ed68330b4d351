import { useStudio } from '../../store/studio-store.ts';

/** What logpoints wrote (and conditions that failed to evaluate), newest at the bottom. */
export function DebugConsole() {
  const lines = useStudio((s) => s.debugOutput);
  return (
    <section className="debug-console" aria-label="Debug console">
      <h3>Debug console</h3>
      {lines.length === 0 ? (
        <p className="muted">Logpoint lines appear here, and in the Logs panel.</p>
      ) : (
        <ol>
          {lines.map((l, i) => (
            <li key={i} className={l.category === 'stderr' ? 'error' : ''}>
              <span className="muted">{new Date(l.at).toLocaleTimeString()} {l.flow} {l.runId} </span>
              {l.text}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
