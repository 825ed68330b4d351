import { useEffect } from 'react';
import type { StepAction } from '../../../shared/debugger-types.ts';
import { abortRun, resumeRun } from './debugger-actions.ts';

const ACTIONS: Array<{ action: StepAction; label: string; key: string; title: string }> = [
  { action: 'continue', label: 'Continue', key: 'F5', title: 'Go on to the next breakpoint' },
  { action: 'next', label: 'Step over', key: 'F10', title: 'Pause before the next step at this level' },
  { action: 'stepIn', label: 'Step into', key: 'F11', title: 'Pause before the very next step: into a switch case, a lock body, an error chain' },
  { action: 'stepOut', label: 'Step out', key: 'Shift+F11', title: 'Pause after leaving the steps that hold this one' },
];

/** Continue, step over / into / out and abort for the shown run, with the keys debuggers use. */
export function RunControls({ thread }: { thread: number }) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      const key = `${e.shiftKey ? 'Shift+' : ''}${e.key}`;
      const found = ACTIONS.find((a) => a.key === key);
      if (!found) return;
      e.preventDefault();
      void resumeRun(thread, found.action);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [thread]);
  return (
    <div className="debug-controls" role="toolbar" aria-label="Run controls">
      {ACTIONS.map((a) => (
        <button key={a.action} type="button" className={a.action === 'continue' ? 'primary' : ''} title={`${a.title} (${a.key})`} onClick={() => void resumeRun(thread, a.action)}>
          {a.label}
        </button>
      ))}
      <button type="button" className="debug-abort" title="Fail the run with an error saying it was aborted here" onClick={() => void abortRun(thread)}>
        Abort
      </button>
    </div>
  );
}
