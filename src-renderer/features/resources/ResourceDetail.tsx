import { useEffect, useState } from 'react';
import type { ResourceEntry } from '../../../shared/resource-types.ts';
import { resourceCalls } from '../../api/resource-calls.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { ResourceEditor } from './ResourceEditor.tsx';
import { TemplatePreview } from './TemplatePreview.tsx';
import { useNameCheck } from './use-name-check.ts';
import { messageOf } from './when.ts';

/** One resource: edit (Ctrl+S saves), rename with the name checked as typed, delete; a template shows its preview. */
export function ResourceDetail({ integration, entry, onRenamed, onDeleted }: { integration: string; entry: ResourceEntry; onRenamed: (e: ResourceEntry) => void; onDeleted: () => void }) {
  const [loaded, setLoaded] = useState<{ key: string; text: string } | undefined>();
  const [text, setText] = useState('');
  const [message, setMessage] = useState<{ ok: boolean; text: string } | undefined>();
  const [renaming, setRenaming] = useState<string | undefined>();
  const key = `${integration}/${entry.file}`;

  useEffect(() => {
    let current = true;
    setLoaded(undefined);
    setMessage(undefined);
    setRenaming(undefined);
    resourceCalls.readResource(integration, entry.kind, entry.name).then(
      (t) => {
        if (!current) return;
        setLoaded({ key, text: t });
        setText(t);
      },
      (err: unknown) => current && setMessage({ ok: false, text: messageOf(err) }),
    );
    return () => {
      current = false;
    };
  }, [integration, entry.kind, entry.name, key]);

  const dirty = loaded !== undefined && loaded.key === key && text !== loaded.text;
  const save = async (): Promise<void> => {
    try {
      await resourceCalls.saveResource(integration, entry.kind, entry.name, text);
      setLoaded({ key, text });
      setMessage({ ok: true, text: 'Saved; a running integration reloads with it.' });
    } catch (err) {
      setMessage({ ok: false, text: messageOf(err) });
    }
  };

  return (
    <section className="rs-detail" aria-label={`Resource ${entry.file}`}>
      <div className="rs-detail-head">
        {renaming === undefined ? (
          <h3>
            {entry.file}
            {dirty ? (
              <span className="rs-warn" aria-label="unsaved changes" title="Unsaved changes">
                {' '}
                ●
              </span>
            ) : null}
          </h3>
        ) : (
          <RenameField integration={integration} entry={entry} value={renaming} onChange={setRenaming} onDone={onRenamed} onCancel={() => setRenaming(undefined)} />
        )}
        <span className="spacer" />
        <button type="button" className="primary" disabled={!dirty} onClick={() => void save()}>
          Save
        </button>
        {renaming === undefined ? (
          <button type="button" onClick={() => setRenaming(entry.name)}>
            Rename
          </button>
        ) : null}
        <ConfirmButton
          label="Delete…"
          question={`Delete ${entry.file}?`}
          confirmLabel="Delete"
          onConfirm={() =>
            void resourceCalls.deleteResource(integration, entry.kind, entry.name).then(onDeleted, (err: unknown) => setMessage({ ok: false, text: messageOf(err) }))
          }
        />
      </div>
      {message ? (
        <div className={`rs-message ${message.ok ? 'rs-ok' : 'rs-error'}`} role={message.ok ? 'status' : 'alert'}>
          {message.text}
        </div>
      ) : null}
      {loaded?.key === key ? (
        <div className={`rs-editor-split ${entry.kind === 'template' ? 'with-preview' : ''}`}>
          <ResourceEditor kind={entry.kind} path={key} initial={loaded.text} onChange={setText} onSave={() => void save()} />
          {entry.kind === 'template' ? <TemplatePreview text={text} /> : null}
        </div>
      ) : (
        <p className="muted">Loading…</p>
      )}
    </section>
  );
}

function RenameField({
  integration,
  entry,
  value,
  onChange,
  onDone,
  onCancel,
}: {
  integration: string;
  entry: ResourceEntry;
  value: string;
  onChange: (v: string) => void;
  onDone: (e: ResourceEntry) => void;
  onCancel: () => void;
}) {
  const check = useNameCheck(integration, entry.kind, value, entry.name);
  const [error, setError] = useState<string | undefined>();
  const submit = async (): Promise<void> => {
    if (value === entry.name) return onCancel();
    try {
      onDone(await resourceCalls.renameResource(integration, entry.kind, entry.name, value));
    } catch (err) {
      setError(messageOf(err));
    }
  };
  return (
    <form
      className="rs-row"
      aria-label="Rename resource"
      onSubmit={(e) => {
        e.preventDefault();
        if (value === entry.name || check?.ok) void submit();
      }}
    >
      <code>{entry.kind}/</code>
      <input aria-label="New name" value={value} autoFocus onChange={(e) => onChange(e.currentTarget.value)} onKeyDown={(e) => e.key === 'Escape' && onCancel()} />
      <button type="submit" disabled={value !== entry.name && !check?.ok}>
        Rename
      </button>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
      {check && !check.ok ? (
        <span className="rs-error rs-hint" role="alert">
          {check.message}
        </span>
      ) : null}
      {error ? <span className="rs-error rs-hint">{error}</span> : null}
    </form>
  );
}
