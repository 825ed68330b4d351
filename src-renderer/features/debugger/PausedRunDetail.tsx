import { useState } from 'react';
import type { PausedRunView } from '../../../shared/debugger-types.ts';
import { JsonTree } from '../traces/JsonTree.tsx';
import { showInEditor } from './BreakpointList.tsx';
import { EvaluateBox } from './EvaluateBox.tsx';
import { MessageTree } from './MessageTree.tsx';
import { RunControls } from './RunControls.tsx';
import { WholeJsonEditor } from './WholeJsonEditor.tsx';

/** One paused run: where it waits (its stack), its message to read and edit, evaluate, and the controls. */
export function PausedRunDetail({ run }: { run: PausedRunView }) {
  const [wholeEdit, setWholeEdit] = useState<'body' | 'vars' | undefined>(undefined);
  return (
    <div className="debug-detail" data-thread={run.thread}>
      <div className="debug-detail-head">
        <h3>
          {run.flow} <span className="muted">{run.runId}</span> paused before <code>{run.step}</code>
        </h3>
        <span className="muted">
          {run.reason === 'breakpoint' ? 'at a breakpoint' : run.reason === 'step' ? 'after a step' : 'on request'} · correlation {run.correlationId}
        </span>
      </div>
      <RunControls thread={run.thread} />
      <section aria-label="Stack">
        <h4>Stack</h4>
        <ol className="debug-stack">
          {run.frames.map((f, i) => (
            <li key={f.id} className={i === 0 ? 'top' : ''}>
              <code>{f.step}</code> <span className="muted">{f.block}{f.name ? ` “${f.name}”` : ''}</span>
              {f.file !== undefined && f.line !== undefined && run.integration ? (
                <button type="button" className="link" onClick={() => showInEditor({ integration: run.integration!, file: f.file!, line: f.line! })}>
                  {f.file}:{f.line}
                </button>
              ) : null}
            </li>
          ))}
        </ol>
      </section>
      <section aria-label="Message" className="debug-message">
        <h4>Message</h4>
        {(['body', 'vars'] as const).map((root) => (
          <div key={root} className="debug-message-part">
            <div className="debug-part-head">
              <span className="debug-part-name">{root}</span>
              <button type="button" className="link" onClick={() => setWholeEdit(wholeEdit === root ? undefined : root)}>
                {wholeEdit === root ? 'Close JSON' : `Edit ${root} as JSON`}
              </button>
            </div>
            {wholeEdit === root ? (
              <WholeJsonEditor key={`${run.thread}-${root}-${run.edits.length}`} thread={run.thread} root={root} value={run.message[root]} onDone={() => setWholeEdit(undefined)} />
            ) : (
              <MessageTree thread={run.thread} root={root} value={run.message[root]} editable />
            )}
          </div>
        ))}
        {run.message.headers ? (
          <div className="debug-message-part">
            <div className="debug-part-head">
              <span className="debug-part-name">headers</span>
              <span className="muted">read only</span>
            </div>
            <MessageTree thread={run.thread} root="headers" value={run.message.headers} editable={false} />
          </div>
        ) : null}
      </section>
      {run.edits.length > 0 ? (
        <section aria-label="Edits">
          <h4>Edits</h4>
          <ul className="debug-edits">
            {run.edits.map((e, i) => (
              <li key={i}>
                <code>{e.path}</code> <span className="muted">by {e.by}</span>
                <div className="debug-edit-diff">
                  <JsonTree value={e.before} label={`${e.path} before`} /> <span aria-hidden="true">→</span> <JsonTree value={e.after} label={`${e.path} after`} />
                </div>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section aria-label="Evaluate">
        <h4>Evaluate</h4>
        <EvaluateBox key={run.thread} thread={run.thread} />
      </section>
    </div>
  );
}
