import type { ValuePreview } from '../../shared/platform-views.ts';

/** A stored value as text: JSON pretty-printed, text as it is, binary as hex; a secret only says so. */
export function ValueView({ value, label }: { value: ValuePreview; label: string }) {
  if (value.kind === 'secret') {
    return (
      <p className="pv-secret" aria-label={label}>
        Secret value: the studio never reads or shows it.
      </p>
    );
  }
  const text = value.kind === 'binary' ? value.hex : value.text;
  return (
    <div className="pv-value">
      <div className="pv-value-meta muted">
        {value.kind === 'binary' ? 'binary, shown as hex' : value.kind === 'json' ? 'JSON' : 'text'} · {formatBytes(value.bytes)}
        {value.truncated ? ' · cut for display' : ''}
      </div>
      <pre aria-label={label} className={`pv-value-text pv-${value.kind}`}>
        {text}
      </pre>
    </div>
  );
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}
