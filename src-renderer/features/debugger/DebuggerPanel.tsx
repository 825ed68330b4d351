import { PanelHeader } from '../../components/PanelHeader.tsx';
import { useStudio } from '../../store/studio-store.ts';
import { BreakpointList } from './BreakpointList.tsx';
import { DebugConsole } from './DebugConsole.tsx';
import { PausedRunDetail } from './PausedRunDetail.tsx';
import { PausedRunList } from './PausedRunList.tsx';
import './debugger.css';

/**
 * The debugger: runs paused at breakpoints (one run waits, the others flow), the chosen run's
 * stack, message, edits and evaluate, with continue, step and abort; the workspace's breakpoints;
 * and what logpoints wrote. Breakpoints are set in the YAML editor's gutter.
 */
export function DebuggerPanel() {
  const paused = useStudio((s) => s.pausedRuns);
  const thread = useStudio((s) => s.debugThread);
  const run = paused.find((p) => p.thread === thread);
  return (
    <section className="panel debugger-panel" aria-labelledby="panel-title">
      <PanelHeader title="Debugger">
        <span className="muted">{paused.length === 0 ? 'no run paused' : `${paused.length} paused run${paused.length === 1 ? '' : 's'}`}</span>
      </PanelHeader>
      <div className="debug-split">
        <aside className="debug-side">
          <h3>Paused runs</h3>
          <PausedRunList />
          <h3>Breakpoints</h3>
          <BreakpointList />
        </aside>
        <div className="debug-main">
          {run ? (
            <PausedRunDetail run={run} />
          ) : (
            <div className="empty-state">
              <h3>Nothing paused</h3>
              <p>A run that reaches a breakpoint waits here before that step while the others are answered. Replay a stored run from Traces to step through it again.</p>
            </div>
          )}
          <DebugConsole />
        </div>
      </div>
    </section>
  );
}
