import { useState } from 'react';
import { editPausedMessage } from './debugger-actions.ts';
import { jsonProblem } from './MessageTree.tsx';

/** Replaces the whole body or vars of a paused run with JSON typed here, checked as you type. */
export function WholeJsonEditor({ thread, root, value, onDone }: { thread: number; root: 'body' | 'vars'; value: unknown; onDone(): void }) {
  const [text, setText] = useState(() => JSON.stringify(value ?? null, null, 2));
  let problem = jsonProblem(text);
  if (!problem && root === 'vars') {
    const parsed: unknown = JSON.parse(text);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) problem = 'vars is an object, e.g. {"id": "42"}';
  }
  return (
    <div className="debug-json-editor">
      <textarea aria-label={`The whole ${root} as JSON`} aria-invalid={problem !== undefined} spellCheck={false} value={text} rows={Math.max(3, Math.min(16, text.split('\n').length + 1))} onChange={(e) => setText(e.currentTarget.value)} />
      <div className="debug-json-actions">
        <span className={problem ? 'error' : 'muted'} role="status">
          {problem ?? `valid JSON — replaces the run's ${root}`}
        </span>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
        <button type="button" className="primary" disabled={problem !== undefined} onClick={() => void editPausedMessage(thread, [root], JSON.parse(text)).then(onDone)}>
          Set {root}
        </button>
      </div>
    </div>
  );
}
