import type { Binding, SecretSummary } from '../../../shared/resource-types.ts';

export type BindingMode = 'none' | 'value' | 'secret';

export interface BindingDraft {
  mode: BindingMode;
  value: string;
  secret: string;
}

export function draftOf(b: Binding | undefined, secrets: SecretSummary[]): BindingDraft {
  if (b && 'secret' in b) return { mode: 'secret', value: '', secret: b.secret };
  if (b) return { mode: 'value', value: b.value, secret: secrets[0]?.name ?? '' };
  return { mode: 'none', value: '', secret: secrets[0]?.name ?? '' };
}

/** The binding a draft stands for; a secret not picked yet is the first one listed, as the select shows. */
export function bindingOf(d: BindingDraft, secrets: SecretSummary[]): Binding | null {
  if (d.mode === 'value') return { value: d.value };
  const secret = d.secret || secrets[0]?.name;
  if (d.mode === 'secret' && secret) return { secret };
  return null;
}

/**
 * How one variable is bound: not at all, to a literal value, or to a cluster secret by name. A
 * variable declared secret offers secrets only: its value is never typed here.
 */
export function BindingFields({ name, secret, draft, secrets, onChange }: { name: string; secret: boolean; draft: BindingDraft; secrets: SecretSummary[]; onChange: (d: BindingDraft) => void }) {
  return (
    <span className="rs-row">
      <select aria-label={`Binding of ${name}`} value={draft.mode} onChange={(e) => onChange({ ...draft, mode: e.currentTarget.value as BindingMode })}>
        <option value="none">not bound</option>
        {!secret ? <option value="value">value</option> : null}
        <option value="secret">secret</option>
      </select>
      {draft.mode === 'value' ? <input aria-label={`Value of ${name}`} value={draft.value} onChange={(e) => onChange({ ...draft, value: e.currentTarget.value })} /> : null}
      {draft.mode === 'secret' ? (
        secrets.length === 0 ? (
          <span className="muted rs-hint">no secrets yet: create one in the Secrets panel</span>
        ) : (
          <select aria-label={`Secret for ${name}`} value={draft.secret || secrets[0].name} onChange={(e) => onChange({ ...draft, secret: e.currentTarget.value })}>
            {secrets.map((s) => (
              <option key={s.name} value={s.name}>
                {s.name}
              </option>
            ))}
          </select>
        )
      ) : null}
    </span>
  );
}
