import type { FileDiff } from '../../../shared/resource-types.ts';
import { resourceCalls } from '../../api/resource-calls.ts';
import { useLiveQuery } from '../../components/use-live-query.ts';

/** A tag against the working copy: what was added, removed and changed since, line by line. */
export function TagDiffView({ integration, tag }: { integration: string; tag: string }) {
  const diff = useLiveQuery(() => resourceCalls.diffTag(integration, tag), `${integration}\0${tag}`, { intervalMs: 0, live: false });
  if (diff.error) return <p className="rs-message rs-error">{diff.error}</p>;
  if (!diff.data) return <p className="muted">Comparing…</p>;
  const changed = diff.data.files.filter((f) => f.status !== 'unchanged');
  const unchanged = diff.data.files.length - changed.length;
  return (
    <section className="rs-scroll" aria-label={`Changes since ${tag}`} style={{ flex: 'none' }}>
      <div className="rs-row">
        <strong>
          {tag} → working copy
        </strong>
        <button type="button" onClick={diff.refresh}>
          Compare again
        </button>
        <span className="muted rs-hint">
          {changed.length === 0 ? 'No changes since the tag.' : `${changed.length} changed`}
          {unchanged > 0 ? `, ${unchanged} unchanged` : ''}
        </span>
      </div>
      {changed.map((f) => (
        <FileDiffView key={f.path} file={f} />
      ))}
    </section>
  );
}

/** One file's line diff; `from` and `to` name the two sides (a tag and the working copy, two versions). */
export function FileDiffView({ file, from = 'tag', to = 'working copy' }: { file: FileDiff; from?: string; to?: string }) {
  return (
    <article className="rs-diff" aria-label={`Diff of ${file.path}`}>
      <h4>
        <span className={`rs-status-${file.status}`}>{file.status}</span>
        <span>{file.path}</span>
      </h4>
      {file.note ? <p className="muted rs-hint">{file.note}</p> : null}
      <pre>
        {file.hunks.map((h, i) => (
          <span key={i}>
            <span className="line hunk">
              @@ {from} line {h.oldStart} · {to} line {h.newStart} @@
            </span>
            {h.lines.map((l, j) => (
              <span key={j} className={`line ${l.op}`}>
                {l.op === 'add' ? '+ ' : l.op === 'remove' ? '- ' : '  '}
                {l.text}
              </span>
            ))}
          </span>
        ))}
      </pre>
    </article>
  );
}
