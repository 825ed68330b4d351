import { useEffect, useRef, useState } from 'react';
import type { KeyValueRow, RequestEnvironments } from '../../../shared/request-types.ts';
import { saveEnvironments } from '../../api/request-actions.ts';
import { useStudio } from '../../store/studio-store.ts';
import { KeyValueTable } from './KeyValueTable.tsx';

/**
 * Picks the environment whose variables fill `{{name}}` in requests, and edits environments
 * (saved to requests/environments.json in the workspace).
 */
export function EnvironmentPicker() {
  const envs = useStudio((s) => s.environments);
  const [editing, setEditing] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  // Focus goes back to the button the editor opened from: closing it unmounts what held focus.
  const close = (): void => {
    setEditing(false);
    toggle.current?.focus();
  };
  return (
    <div className="env-picker">
      <label>
        <span className="muted">environment </span>
        <select aria-label="Environment" value={envs.active ?? ''} onChange={(e) => void saveEnvironments({ ...envs, active: e.target.value || undefined })}>
          <option value="">none</option>
          {envs.environments.map((e) => (
            <option key={e.name}>{e.name}</option>
          ))}
        </select>
      </label>
      <button type="button" ref={toggle} onClick={() => setEditing(!editing)} aria-expanded={editing}>
        Environments…
      </button>
      {editing ? <EnvironmentEditor envs={envs} onDone={close} /> : null}
    </div>
  );
}

function EnvironmentEditor({ envs, onDone }: { envs: RequestEnvironments; onDone(): void }) {
  const [draft, setDraft] = useState(() => envs.environments.map((e) => ({ name: e.name, rows: Object.entries(e.vars).map(([name, value]): KeyValueRow => ({ name, value, enabled: true })) })));
  const box = useRef<HTMLDivElement>(null);
  // Focus moves in as it opens, so Escape reaches it at once.
  useEffect(() => box.current?.querySelector<HTMLElement>('input, button')?.focus(), []);
  const save = (): void => {
    const environments = draft.filter((d) => d.name.trim()).map((d) => ({ name: d.name.trim(), vars: Object.fromEntries(d.rows.filter((r) => r.enabled && r.name.trim()).map((r) => [r.name.trim(), r.value])) }));
    const active = environments.some((e) => e.name === envs.active) ? envs.active : environments[0]?.name;
    void saveEnvironments({ active, environments }).then(onDone);
  };
  return (
    <div
      ref={box}
      className="env-editor"
      role="dialog"
      aria-label="Environments"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onDone();
        }
      }}
    >
      {draft.length === 0 ? (
        <p className="muted env-empty">
          No environments yet. An environment is a set of variables that fill <code>{'{{name}}'}</code> in a request's URL, headers and body (say <code>local</code> with{' '}
          <code>token</code>); add one, then pick it beside the panel title. They are saved in the workspace as <code>requests/environments.json</code>.
        </p>
      ) : null}
      {draft.map((d, i) => (
        <fieldset key={i}>
          <legend>
            <input aria-label={`Environment name ${i + 1}`} value={d.name} placeholder="name, e.g. local" onChange={(e) => setDraft(draft.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)))} />
            <button type="button" className="icon" aria-label={`Remove environment ${d.name}`} onClick={() => setDraft(draft.filter((_, j) => j !== i))}>
              ×
            </button>
          </legend>
          <KeyValueTable label="Variables" namePlaceholder="variable" rows={d.rows} onChange={(rows) => setDraft(draft.map((x, j) => (j === i ? { ...x, rows } : x)))} />
        </fieldset>
      ))}
      <div className="env-editor-actions">
        <button type="button" onClick={() => setDraft([...draft, { name: '', rows: [{ name: '', value: '', enabled: true }] }])}>
          Add environment
        </button>
        <span className="spacer" />
        <button type="button" onClick={onDone}>
          Cancel
        </button>
        <button type="button" className="primary" onClick={save}>
          Save
        </button>
      </div>
    </div>
  );
}
