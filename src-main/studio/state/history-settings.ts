import { DEFAULT_HISTORY_SETTINGS, HISTORY_KINDS, RETENTION_LIMITS, type HistorySettings, type HistorySettingsPatch } from '../../../shared/history-types.ts';
import { StudioError } from '../studio-error.ts';
import type { StudioDb } from './studio-db.ts';

const KEY = 'history';

/**
 * The history settings, kept in studio.db: retention per kind and whether a start brings back
 * the integrations that were running. A stored value missing a field takes its default, so
 * settings written by an older studio still read.
 */
export class HistorySettingsStore {
  private current: HistorySettings;
  private readonly listeners = new Set<(settings: HistorySettings) => void>();

  constructor(private readonly db: StudioDb) {
    this.current = withDefaults(this.read());
  }

  get(): HistorySettings {
    return this.current;
  }

  onChange(listener: (settings: HistorySettings) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Applies a change after checking every value, naming the one that is out of bounds. */
  update(patch: HistorySettingsPatch): HistorySettings {
    const next = structuredClone(this.current);
    if (patch?.restoreRunning !== undefined) {
      if (typeof patch.restoreRunning !== 'boolean') throw new StudioError('restoreRunning must be true or false');
      next.restoreRunning = patch.restoreRunning;
    }
    for (const [kind, retention] of Object.entries(patch?.retention ?? {})) {
      if (!(HISTORY_KINDS as readonly string[]).includes(kind)) throw new StudioError(`"${kind}" is not a kind of history; the kinds are ${HISTORY_KINDS.join(', ')}`);
      const k = kind as keyof HistorySettings['retention'];
      for (const field of ['count', 'bytes'] as const) {
        const value = retention?.[field];
        if (value === undefined) continue;
        const [min, max] = RETENTION_LIMITS[k][field];
        if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
          throw new StudioError(`retention.${k}.${field} must be a whole number from ${min.toLocaleString('en-US')} to ${max.toLocaleString('en-US')}; got ${JSON.stringify(value)}`);
        }
        next.retention[k][field] = value;
      }
    }
    this.db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(KEY, JSON.stringify(next));
    this.current = next;
    for (const l of this.listeners) l(next);
    return next;
  }

  private read(): Partial<HistorySettings> {
    const row = this.db.prepare('SELECT value FROM settings WHERE key = ?').get(KEY) as { value: string } | undefined;
    if (!row) return {};
    try {
      return JSON.parse(row.value) as Partial<HistorySettings>;
    } catch {
      return {};
    }
  }
}

function withDefaults(stored: Partial<HistorySettings>): HistorySettings {
  const out = structuredClone(DEFAULT_HISTORY_SETTINGS);
  if (typeof stored.restoreRunning === 'boolean') out.restoreRunning = stored.restoreRunning;
  for (const kind of HISTORY_KINDS) {
    const r = stored.retention?.[kind];
    for (const field of ['count', 'bytes'] as const) {
      const v = r?.[field];
      const [min, max] = RETENTION_LIMITS[kind][field];
      if (typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max) out.retention[kind][field] = v;
    }
  }
  return out;
}
