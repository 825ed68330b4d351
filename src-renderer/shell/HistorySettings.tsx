import { useEffect, useState } from 'react';
import { HISTORY_KINDS, type HistoryKind, type HistoryOverview, type Retention } from '../../shared/history-types.ts';
import { historyCalls } from '../api/history-calls.ts';
import { Dialog } from '../features/resources/Dialog.tsx';
import { useStudio } from '../store/studio-store.ts';

const LABELS: Record<HistoryKind, { title: string; unit: string }> = {
  runs: { title: 'Runs with their steps', unit: 'runs' },
  captures: { title: 'Captured requests', unit: 'captures' },
  logs: { title: 'Log lines', unit: 'lines' },
  requests: { title: 'Sent requests (History)', unit: 'requests' },
};

const MIB = 1024 * 1024;
const mib = (bytes: number): string => `${(bytes / MIB).toLocaleString('en-US', { maximumFractionDigits: bytes < 10 * MIB ? 1 : 0 })} MiB`;

/**
 * What the studio keeps in its data folder across restarts: how much of each kind (the oldest go
 * first beyond either bound), clearing one kind, and whether a start runs again what was running.
 */
export function HistorySettings() {
  const open = useStudio((s) => s.historyOpen);
  const setOpen = useStudio((s) => s.setHistoryOpen);
  if (!open) return null;
  return <HistoryDialog onClose={() => setOpen(false)} />;
}

function HistoryDialog({ onClose }: { onClose(): void }) {
  const [overview, setOverview] = useState<HistoryOverview | undefined>(undefined);
  const [draft, setDraft] = useState<Record<HistoryKind, { count: string; mib: string }> | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [saved, setSaved] = useState(false);
  const runsCleared = useStudio((s) => s.runsCleared);
  const clearLogs = useStudio((s) => s.clearLogs);
  const setHistory = useStudio((s) => s.setHistory);

  const edit = (kind: HistoryKind, patch: Partial<{ count: string; mib: string }>): void => {
    setSaved(false);
    setDraft((d) => (d ? { ...d, [kind]: { ...d[kind], ...patch } } : d));
  };
  const take = (o: HistoryOverview): void => {
    setOverview(o);
    setDraft(draftOf(o.settings.retention));
  };
  useEffect(() => {
    historyCalls.overview().then(take, (err: unknown) => setError(String(err instanceof Error ? err.message : err)));
  }, []);

  const save = (): void => {
    if (!draft) return;
    const retention: Partial<Record<HistoryKind, Retention>> = {};
    for (const kind of HISTORY_KINDS) retention[kind] = { count: Number(draft[kind].count), bytes: Math.round(Number(draft[kind].mib) * MIB) };
    setError(undefined);
    historyCalls.update({ retention }).then(
      (o) => {
        take(o);
        setSaved(true);
      },
      (err: unknown) => setError(err instanceof Error ? err.message : String(err)),
    );
  };
  const clear = (kind: HistoryKind): void => {
    historyCalls.clear(kind).then((o) => {
      setOverview(o);
      if (kind === 'runs') runsCleared();
      if (kind === 'logs') clearLogs();
      if (kind === 'requests') setHistory([]);
    }, (err: unknown) => setError(err instanceof Error ? err.message : String(err)));
  };

  return (
    <Dialog title="History" onClose={onClose}>
      <p className="muted">
        Kept in the studio's data folder, listed again after a restart. Beyond either bound the oldest go first.{' '}
        {overview ? <code title="the database file">{overview.file}</code> : null}
      </p>
      {!overview || !draft ? (
        <p className="muted">{error ?? 'Loading…'}</p>
      ) : (
        <>
          <table className="history-table" aria-label="Retention">
            <thead>
              <tr>
                <th scope="col">Kind</th>
                <th scope="col">Kept now</th>
                <th scope="col">Keep at most</th>
                <th scope="col">and at most</th>
                <th scope="col" />
              </tr>
            </thead>
            <tbody>
              {HISTORY_KINDS.map((kind) => {
                const d = overview.defaults.retention[kind];
                const used = overview.usage[kind];
                return (
                  <tr key={kind} data-kind={kind}>
                    <th scope="row">{LABELS[kind].title}</th>
                    <td className="muted">
                      {used.count.toLocaleString('en-US')} · {mib(used.bytes)}
                    </td>
                    <td>
                      <LimitField label={`${LABELS[kind].title}: most ${LABELS[kind].unit}`} unit={LABELS[kind].unit} hint={`default ${d.count.toLocaleString('en-US')}`} value={draft[kind].count} size={9} onChange={(count) => edit(kind, { count })} />
                    </td>
                    <td>
                      <LimitField label={`${LABELS[kind].title}: most MiB`} unit="MiB" hint={`default ${mib(d.bytes)}`} value={draft[kind].mib} size={6} onChange={(mibs) => edit(kind, { mib: mibs })} />
                    </td>
                    <td>
                      <button type="button" className="rs-danger" onClick={() => clear(kind)} aria-label={`Clear ${LABELS[kind].title.toLowerCase()}`}>
                        Clear
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <p className="muted history-defaults">
            Defaults:{' '}
            {HISTORY_KINDS.map((k) => `${overview.defaults.retention[k].count.toLocaleString('en-US')} ${LABELS[k].unit} / ${mib(overview.defaults.retention[k].bytes)}`).join(' · ')}
          </p>
          <label>
            <input
              type="checkbox"
              checked={overview.settings.restoreRunning}
              onChange={(e) => historyCalls.update({ restoreRunning: e.target.checked }).then(take, (err: unknown) => setError(String(err instanceof Error ? err.message : err)))}
            />{' '}
            Start the integrations that were running when the studio starts
          </label>
          {error ? (
            <p className="rs-message rs-error" role="alert">
              {error}
            </p>
          ) : null}
          <div className="rs-dialog-actions">
            {saved ? <span className="muted" role="status">Saved.</span> : null}
            <button type="button" onClick={onClose}>
              Close
            </button>
            <button type="button" className="primary" onClick={save}>
              Save limits
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}

/** One bound of one kind: a number typed, its unit, the default on hover. */
function LimitField({ label, unit, hint, value, size, onChange }: { label: string; unit: string; hint: string; value: string; size: number; onChange(value: string): void }) {
  return (
    <>
      <input aria-label={label} inputMode="decimal" value={value} size={size} onChange={(e) => onChange(e.target.value)} />{' '}
      <span className="muted" title={hint}>
        {unit}
      </span>
    </>
  );
}

function draftOf(retention: Record<HistoryKind, Retention>): Record<HistoryKind, { count: string; mib: string }> {
  const out = {} as Record<HistoryKind, { count: string; mib: string }>;
  for (const kind of HISTORY_KINDS) out[kind] = { count: String(retention[kind].count), mib: String(Math.round((retention[kind].bytes / MIB) * 10) / 10) };
  return out;
}
