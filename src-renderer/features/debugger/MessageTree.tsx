import { useState } from 'react';
import { editPausedMessage } from './debugger-actions.ts';

type Path = Array<string | number>;

/**
 * A paused run's message as a tree: branches fold, scalars of body and vars can be edited in
 * place (a JSON value, checked as you type; Enter sets it, Escape leaves it). Headers are read only.
 */
export function MessageTree({ thread, root, value, editable }: { thread: number; root: 'body' | 'vars' | 'headers'; value: unknown; editable: boolean }) {
  return (
    <div className="json-tree debug-tree" role="tree" aria-label={root}>
      <Node thread={thread} name={root} value={value} path={[root]} depth={0} editable={editable} />
    </div>
  );
}

function Node({ thread, name, value, path, depth, editable }: { thread: number; name: string | number; value: unknown; path: Path; depth: number; editable: boolean }) {
  const [open, setOpen] = useState(depth < 2);
  const label = <span className="json-key">{typeof name === 'number' ? `[${name}]` : name}</span>;
  if (value !== null && typeof value === 'object') {
    const entries: Array<[string | number, unknown]> = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
    return (
      <div className="json-branch" role="treeitem" aria-expanded={open} data-path={path.join('.')}>
        <button type="button" className="json-toggle" onClick={() => setOpen(!open)} aria-label={`${open ? 'Collapse' : 'Expand'} ${path.join('.')}`}>
          {open ? '▾' : '▸'}
        </button>
        {label}
        <span className="json-punct"> {Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`}</span>
        {open ? (
          <div className="json-children" role="group">
            {entries.map(([k, v]) => (
              <Node key={k} thread={thread} name={k} value={v} path={[...path, k]} depth={depth + 1} editable={editable} />
            ))}
          </div>
        ) : null}
      </div>
    );
  }
  return (
    <div className="json-row" role="treeitem" data-path={path.join('.')}>
      {label}
      <span className="json-punct">: </span>
      {editable ? <EditableScalar thread={thread} path={path} value={value} /> : <Scalar value={value} />}
    </div>
  );
}

function EditableScalar({ thread, path, value }: { thread: number; path: Path; value: unknown }) {
  const [text, setText] = useState<string | undefined>(undefined);
  if (text === undefined) {
    return (
      <button type="button" className="debug-scalar" title="Edit this value" aria-label={`Edit ${path.join('.')}`} onClick={() => setText(JSON.stringify(value ?? null))}>
        <Scalar value={value} />
      </button>
    );
  }
  const problem = jsonProblem(text);
  const commit = (): void => {
    if (problem) return;
    void editPausedMessage(thread, path, JSON.parse(text)).then(() => setText(undefined));
  };
  return (
    <span className="debug-edit">
      <input
        autoFocus
        aria-label={`New value of ${path.join('.')}`}
        aria-invalid={problem !== undefined}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit();
          if (e.key === 'Escape') setText(undefined);
        }}
      />
      <button type="button" onClick={commit} disabled={problem !== undefined}>
        Set
      </button>
      {problem ? <span className="error"> {problem}</span> : null}
    </span>
  );
}

export function Scalar({ value }: { value: unknown }) {
  if (typeof value === 'string') return <span className="json-string">{JSON.stringify(value)}</span>;
  if (typeof value === 'number') return <span className="json-number">{String(value)}</span>;
  if (typeof value === 'boolean') return <span className="json-bool">{String(value)}</span>;
  return <span className="json-null">null</span>;
}

/** Why the text is not a JSON value, in a few words; undefined when it is one. */
export function jsonProblem(text: string): string | undefined {
  if (text.trim() === '') return 'a JSON value is needed (null clears it; text goes in quotes)';
  try {
    JSON.parse(text);
    return undefined;
  } catch (err) {
    return `not JSON: ${(err as Error).message}${/^[A-Za-z]/.test(text.trim()) && !/^(true|false|null)$/.test(text.trim()) ? ' (text goes in quotes)' : ''}`;
  }
}
