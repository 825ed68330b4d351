import type { KeyValueRow } from '../../../shared/request-types.ts';

/** Editable name/value rows (query, headers); an unchecked row stays but is not sent. */
export function KeyValueTable({ rows, onChange, label, namePlaceholder }: { rows: KeyValueRow[]; onChange(rows: KeyValueRow[]): void; label: string; namePlaceholder: string }) {
  const update = (i: number, patch: Partial<KeyValueRow>): void => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <div className="kv-table" role="group" aria-label={label}>
      {rows.map((r, i) => (
        <div key={i} className="kv-row">
          <input type="checkbox" checked={r.enabled} onChange={(e) => update(i, { enabled: e.target.checked })} aria-label={`Send ${r.name || 'row'}`} />
          <input className="kv-name" placeholder={namePlaceholder} value={r.name} onChange={(e) => update(i, { name: e.target.value })} aria-label={`${label} name ${i + 1}`} />
          <input className="kv-value" placeholder="value" value={r.value} onChange={(e) => update(i, { value: e.target.value })} aria-label={`${label} value ${i + 1}`} />
          <button type="button" className="icon" onClick={() => onChange(rows.filter((_, j) => j !== i))} aria-label={`Remove ${r.name || 'row'}`}>
            ×
          </button>
        </div>
      ))}
      <button type="button" className="link" onClick={() => onChange([...rows, { name: '', value: '', enabled: true }])}>
        + add {label.toLowerCase().replace(/s$/, '')}
      </button>
    </div>
  );
}
