import { useState } from 'react';
import type { KvEntryDetail, KvWriteEvent } from '../../../shared/platform-views.ts';
import { platformQueries } from '../../api/platform-queries.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { RunLinkButton } from '../../components/RunLinkButton.tsx';
import { useLiveQuery } from '../../components/use-live-query.ts';
import { ValueView } from '../../components/ValueView.tsx';
import { clockTime } from '../../shell/format.ts';
import { VisibleKey, visibleKey } from './VisibleKey.tsx';

interface Draft {
  text: string;
  format: 'json' | 'text';
  /** The version the edit started from; the save is refused if the entry moved on. */
  baseVersion: number;
}

/** One entry: value, version, last write and its run; edit with the version check, delete. */
export function KvEntryPanel({ namespace, entryKey, onChanged }: { namespace: string; entryKey: string; onChanged: () => void }) {
  const [draft, setDraft] = useState<Draft | undefined>();
  const [message, setMessage] = useState<{ kind: 'ok' | 'conflict' | 'error'; text: string } | undefined>();
  const entry = useLiveQuery(() => platformQueries.kvEntry(namespace, entryKey), `${namespace}\0${entryKey}`, { intervalMs: 1_000, live: draft === undefined });
  const e = entry.data;
  const secret = namespace.endsWith('_secrets');

  const save = async (d: Draft): Promise<void> => {
    try {
      const result = await platformQueries.writeKvEntry({ namespace, key: entryKey, text: d.text, format: d.format, expectedVersion: d.baseVersion });
      if (result.ok) {
        setDraft(undefined);
        setMessage({ kind: 'ok', text: `Saved as version ${result.version}.` });
        entry.refresh();
        onChanged();
      } else {
        setMessage({
          kind: 'conflict',
          text: `${result.conflict} Your edit started from version ${d.baseVersion}${result.currentVersion !== undefined ? `; the entry is now at version ${result.currentVersion}` : ''}. Nothing was overwritten.`,
        });
      }
    } catch (err) {
      setMessage({ kind: 'error', text: (err as Error).message });
    }
  };

  const remove = async (version: number): Promise<void> => {
    const result = await platformQueries.deleteKvEntry(namespace, entryKey, version);
    if (result.ok) {
      setMessage({ kind: 'ok', text: result.deleted ? 'Deleted.' : 'It was already gone.' });
      onChanged();
    } else setMessage({ kind: 'conflict', text: `${result.conflict} Nothing was deleted.` });
  };

  return (
    <section className="pv-entry" aria-label={`Entry ${visibleKey(entryKey)}`}>
      <KeyHeading entryKey={entryKey} />
      {e === null ? <p className="muted">No such entry now (deleted, or it has not been written yet).</p> : null}
      {e ? (
        <>
          <dl className="pv-facts">
            <dt>Version</dt>
            <dd data-field="version">{e.version}</dd>
            <dt>Written</dt>
            <dd>{e.updatedAt !== undefined ? `${new Date(e.updatedAt).toLocaleDateString()} ${clockTime(e.updatedAt)}` : 'kept in memory'}</dd>
            <dt>By</dt>
            <dd data-field="writer">
              <Writer write={e.lastWrite} />
            </dd>
          </dl>
          {draft ? (
            <div className="pv-editor">
              <label className="pv-editor-format">
                Format
                <select value={draft.format} onChange={(ev) => setDraft({ ...draft, format: ev.currentTarget.value as Draft['format'] })}>
                  <option value="json">JSON</option>
                  <option value="text">text</option>
                </select>
              </label>
              <textarea aria-label="New value" rows={10} spellCheck={false} value={draft.text} onChange={(ev) => setDraft({ ...draft, text: ev.currentTarget.value })} />
              <div className="pv-form-actions">
                <button type="button" className="primary" onClick={() => void save(draft)}>
                  Save (if still version {draft.baseVersion})
                </button>
                <button
                  type="button"
                  onClick={() => {
                    setDraft(undefined);
                    setMessage(undefined);
                  }}
                >
                  Cancel
                </button>
              </div>
            </div>
          ) : (
            <>
              <ValueView value={e.value} label="Value" />
              <div className="pv-actions">
                <button type="button" disabled={secret || e.editText === undefined} title={secret ? 'Set secret values in Secrets → Platform secrets' : undefined} onClick={() => startEdit(e, setDraft, setMessage)}>
                  Edit
                </button>
                <ConfirmButton label="Delete…" question={`Delete ${visibleKey(entryKey)} (version ${e.version})?`} confirmLabel="Delete" onConfirm={() => void remove(e.version)} />
              </div>
            </>
          )}
          {message ? (
            <div role={message.kind === 'ok' ? 'status' : 'alert'} className={`pv-message pv-${message.kind}`}>
              {message.text}
              {message.kind === 'conflict' && draft ? (
                <button
                  type="button"
                  onClick={() => {
                    setDraft(undefined);
                    setMessage(undefined);
                    entry.refresh();
                  }}
                >
                  Discard my edit and show the current value
                </button>
              ) : null}
            </div>
          ) : null}
        </>
      ) : null}
    </section>
  );
}

function startEdit(e: KvEntryDetail, setDraft: (d: Draft) => void, setMessage: (m: undefined) => void): void {
  setMessage(undefined);
  setDraft({ text: e.editText ?? '', format: e.editFormat ?? 'json', baseVersion: e.version });
}

/** Who made a write: a run (when one kv step was running then), the studio, or several candidate runs. */
export function Writer({ write }: { write: KvWriteEvent | undefined }) {
  if (!write) return <span className="muted">before the history kept</span>;
  if (write.fromStudio) return <span>the studio</span>;
  if (write.run) return <RunLinkButton run={write.run} />;
  if (write.possibleRuns) return <span className="muted">one of {write.possibleRuns} runs writing at that moment</span>;
  return <span className="muted">not a studio run</span>;
}

/**
 * The key as a heading: control characters drawn visibly, a long key wrapped within the panel (and
 * scrolled past a few lines) instead of cut at its edge, and a button that copies the key as stored.
 */
function KeyHeading({ entryKey }: { entryKey: string }) {
  const [copied, setCopied] = useState<string | undefined>();
  return (
    <div className="pv-key-heading">
      <h3 className="pv-title">
        <code>
          <VisibleKey text={entryKey} />
        </code>
      </h3>
      <button
        type="button"
        className="link"
        onClick={() =>
          void navigator.clipboard?.writeText(entryKey).then(
            () => setCopied('Copied.'),
            () => setCopied('The clipboard is not available here; select the key and copy it.'),
          )
        }
      >
        Copy key
      </button>
      {copied ? (
        <span className="muted" role="status">
          {copied}
        </span>
      ) : null}
    </div>
  );
}
