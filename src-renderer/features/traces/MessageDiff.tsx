import type { MessageSnapshot } from '../../../shared/trace-types.ts';
import { diffValues, pathText, type ValueChange } from './json-diff.ts';

/** How body and vars changed between two messages, one line per changed value. */
export function MessageDiff({ before, after, label }: { before: MessageSnapshot | undefined; after: MessageSnapshot | undefined; label: string }) {
  if (!before && !after) return <p className="muted">No messages were recorded.</p>;
  const body = diffValues(before?.body ?? null, after?.body ?? null, ['body']);
  const vars = diffValues(before?.vars ?? {}, after?.vars ?? {}, ['vars']);
  const all = [...body, ...vars];
  return (
    <div className="message-diff" aria-label={label}>
      {all.length === 0 ? <p className="muted">Body and vars are the same.</p> : null}
      <ul className="diff-list">
        {all.map((c) => (
          <DiffLine key={JSON.stringify(c.path)} change={c} />
        ))}
      </ul>
    </div>
  );
}

function DiffLine({ change }: { change: ValueChange }) {
  const show = (v: unknown): string => {
    const text = JSON.stringify(v);
    return text === undefined ? 'undefined' : text.length > 300 ? text.slice(0, 300) + '…' : text;
  };
  return (
    <li className={`diff-line diff-${change.kind}`} data-path={pathText(change.path)}>
      <code className="diff-path">{pathText(change.path)}</code>{' '}
      {change.kind === 'added' ? (
        <span>
          added <code className="diff-after">{show(change.after)}</code>
        </span>
      ) : change.kind === 'removed' ? (
        <span>
          removed <code className="diff-before">{show(change.before)}</code>
        </span>
      ) : (
        <span>
          <code className="diff-before">{show(change.before)}</code> → <code className="diff-after">{show(change.after)}</code>
        </span>
      )}
    </li>
  );
}
